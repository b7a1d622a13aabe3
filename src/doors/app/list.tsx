// The parts of the application's lists: a table of records whose columns each say their header and their cell once (on
// a phone every row stacks into a card, each cell labelled by its column), and the search box above a list.
import { esc } from './ui'

/** One column of a RecordsTable: its header, how its cells sit, and what a row shows in it. */
export interface Column<R> {
  /** The header's words; on a phone each cell is labelled with them. */
  head: string
  /** The row's name, first: the card's title on a phone, so its cell carries no label. */
  key?: boolean
  /** Amounts and counts, aligned right. */
  num?: boolean
  /** Dates and numbers, kept on one line. */
  nowrap?: boolean
  /** Buttons: the cell carries no label, and the header is for screen readers only unless `headShown` (muted). */
  actions?: boolean
  headShown?: boolean
  cell: (row: R) => JSX.Element
}

/**
 * A table of records, one row each. `empty` is the row said when there are none (a table without it shows nothing in
 * its place); `rowAttributes` names a row for scripts and tests (`data-entry`, an id); `after` are rows that follow
 * the records (a total); `caption` says what the table holds.
 */
export function RecordsTable<R>(p: {
  columns: ReadonlyArray<Column<R>>
  rows: readonly R[]
  empty?: string
  id?: string
  caption?: JSX.Element
  rowAttributes?: (row: R) => Record<string, string>
  after?: JSX.Element
}): JSX.Element {
  return (
    <div class="table-wrap">
      <table class="stacked" id={p.id}>
        {p.caption ? <caption>{p.caption}</caption> : ''}
        <thead>
          <tr>
            {p.columns.map((col) => (
              <th scope="col" class={col.num ? 'num' : undefined}>
                {col.actions ? <span class={col.headShown ? 'muted' : 'sr'}>{esc(col.head)}</span> : esc(col.head)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {p.rows.length === 0 && p.empty !== undefined ? (
            <tr>
              <td colspan={String(p.columns.length)} class="muted">
                {esc(p.empty)}
              </td>
            </tr>
          ) : (
            p.rows.map((row) => (
              <tr {...p.rowAttributes?.(row)}>
                {p.columns.map((col) => (
                  <td
                    class={[col.key && 'key', col.num && 'num', col.nowrap && 'nowrap']}
                    data-label={col.key || col.actions ? undefined : esc(col.head)}
                  >
                    {col.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
          {p.after ?? ''}
        </tbody>
      </table>
    </div>
  )
}

/** The search box of a list: a GET form of one `search` field, labelled for screen readers. */
export function SearchBox(p: { action: string; id: string; label: string; value?: string; placeholder: string }) {
  return (
    <form method="get" action={esc(p.action)} class="row filters" role="search">
      <label for={p.id} class="sr">
        {esc(p.label)}
      </label>
      <input id={p.id} type="search" name="search" value={esc(p.value ?? '')} placeholder={esc(p.placeholder)} />
      <button type="submit" class="quiet">
        Search
      </button>
    </form>
  )
}

/**
 * The From and To dates of a report's period, a GET form that shows it. `standalone`: the form is a card of its own and
 * Show its main button (the reports page); else it sits in a card with quiet Show (a Client's statement). `children`
 * follow the button (a CSV link of the period shown).
 */
export function PeriodFilter(p: {
  action: string
  period: { from: string; to: string }
  standalone?: boolean
  children?: JSX.Element
}): JSX.Element {
  return (
    <form method="get" action={esc(p.action)} class={p.standalone ? 'row filters card' : 'row filters'}>
      <label>
        From <input type="date" name="from" value={esc(p.period.from)} required />
      </label>
      <label>
        To <input type="date" name="to" value={esc(p.period.to)} required />
      </label>
      <button type="submit" class={p.standalone ? undefined : 'quiet'}>
        Show
      </button>
      {p.children ?? ''}
    </form>
  )
}
