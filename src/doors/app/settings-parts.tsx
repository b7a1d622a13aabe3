// The parts the settings pages are built of: a card with its heading, a form of fields with its one button, a form
// that is only a button (revoke, remove, pause), and the notice of what the plan does not allow. Their tables of
// records are list.tsx's RecordsTable.
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

/** What the Business's plan does not allow on this page, said above its forms (nothing when the plan allows it). */
export function PlanLimit({ limited, text }: { limited: boolean; text: string }): JSX.Element {
  return limited ? <p class="notice warn">{esc(text)}</p> : ''
}
