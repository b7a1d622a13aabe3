// The parts the settings pages are built of: a card with its heading, a form of fields with its one button, a form
// that is only a button (revoke, remove, pause), and a table of records whose columns name their own cells.
import { PostForm, esc } from './ui'

type Children = JSX.Element | JSX.Element[]

/** A card of a page under its heading, which names the section for assistive technology (aria-labelledby). */
export function Section(p: {
  /** The heading's id. */
  id: string
  title: string
  /** The section's own id, for a link or a test to find it. */
  sectionId?: string
  /** The heading's class: `flush` unless told. */
  titleClass?: string
  children?: Children
}): JSX.Element {
  return (
    <section class="card" aria-labelledby={p.id} id={p.sectionId}>
      <h2 id={p.id} class={p.titleClass ?? 'flush'}>
        {esc(p.title)}
      </h2>
      {p.children}
    </section>
  )
}

/** A form of fields that changes something, with its one submit button at the foot. */
export function FieldsForm(p: {
  action: string
  token: string
  submit: string
  id?: string
  enctype?: 'multipart/form-data'
  children?: Children
}): JSX.Element {
  return (
    <PostForm action={p.action} token={p.token} id={p.id} enctype={p.enctype}>
      <>{p.children}</>
      <div>
        <button type="submit">{esc(p.submit)}</button>
      </div>
    </PostForm>
  )
}

/** A change that takes nothing but its button (revoke, remove, pause): an inline form posting it. */
export function ButtonForm(p: {
  action: string
  token: string
  label: string
  kind: 'danger' | 'quiet'
  id?: string
  /** The button's name for assistive technology where its label alone would not say which record it changes. */
  ariaLabel?: string
  /** A field the change names its record by, when the action's path does not. */
  hidden?: { name: string; value: string }
}): JSX.Element {
  return (
    <PostForm action={p.action} token={p.token} class="inline">
      {p.hidden ? <input type="hidden" name={p.hidden.name} value={esc(p.hidden.value)} /> : ''}
      <button
        type="submit"
        class={p.kind}
        id={p.id}
        aria-label={p.ariaLabel === undefined ? undefined : esc(p.ariaLabel)}
      >
        {esc(p.label)}
      </button>
    </PostForm>
  )
}

/** A column of a table of records: its heading, and what a record shows in it. */
export interface Column<T> {
  head: string
  cell: (row: T, i: number) => JSX.Element
}

/**
 * Records as a table, or `empty` in words when there are none. A stacked table (the default) turns each record into
 * a card on a narrow screen: its first column titles the card, and each other cell is labelled with its column's
 * heading. `action` is a last column of buttons, headed quietly and left unlabelled.
 */
export function RecordsTable<T>(p: {
  rows: readonly T[]
  columns: ReadonlyArray<Column<T>>
  action?: Column<T>
  empty?: string
  stacked?: boolean
}): JSX.Element {
  if (p.rows.length === 0 && p.empty !== undefined) return <p class="muted">{esc(p.empty)}</p>
  const stacked = p.stacked ?? true
  const cell = (col: Column<T>, n: number, row: T, i: number): JSX.Element => {
    if (!stacked) return <td>{col.cell(row, i)}</td>
    if (n === 0) return <td class="key">{col.cell(row, i)}</td>
    return <td data-label={esc(col.head)}>{col.cell(row, i)}</td>
  }
  return (
    <div class="table-wrap">
      <table class={stacked ? 'stacked' : undefined}>
        <thead>
          <tr>
            {p.columns.map((col) => (
              <th scope="col">{esc(col.head)}</th>
            ))}
            {p.action ? (
              <th scope="col">
                <span class="muted">{esc(p.action.head)}</span>
              </th>
            ) : (
              ''
            )}
          </tr>
        </thead>
        <tbody>
          {p.rows.map((row, i) => (
            <tr>
              {p.columns.map((col, n) => cell(col, n, row, i))}
              {p.action ? <td>{p.action.cell(row, i)}</td> : ''}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** What the Business's plan does not allow on this page, said above its forms (nothing when the plan allows it). */
export function PlanLimit({ limited, text }: { limited: boolean; text: string }): JSX.Element {
  return limited ? <p class="notice warn">{esc(text)}</p> : ''
}
