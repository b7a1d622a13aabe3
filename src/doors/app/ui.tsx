// Building blocks of every page: escaping, form fields that keep what was typed and show why it was refused, notices.
// Every text that comes from a person or the database goes through esc() (children) or a component that does.
import { escapeHtml } from '@kitajs/html'
import type { FormState } from './context'
import { CSRF_FIELD } from './csrf'

/** Escapes text for HTML (children and attribute values alike). */
export function esc(value: unknown): string {
  return escapeHtml(value === null || value === undefined ? '' : String(value))
}

export function Csrf({ token }: { token: string }): JSX.Element {
  return <input type="hidden" name={CSRF_FIELD} value={esc(token)} />
}

/** A form that changes something: POST, the CSRF token, and its fields. */
export function PostForm(props: {
  action: string
  token: string
  class?: string
  id?: string
  enctype?: 'multipart/form-data'
  children?: JSX.Element | JSX.Element[]
}): JSX.Element {
  return (
    <form method="post" action={esc(props.action)} class={props.class ?? 'stack'} id={props.id} enctype={props.enctype}>
      <Csrf token={props.token} />
      {props.children}
    </form>
  )
}

interface FieldProps extends ControlProps {
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'date'
  required?: boolean
  autocomplete?: string
  maxlength?: number
  placeholder?: string
}

/**
 * The frame of a labelled control (an input, a select, a text area): its label, its hint, and the errors of its field
 * after a refusal. `described`: the hint and the errors carry ids, for the control's aria-describedby.
 */
function FieldFrame(p: {
  id: string
  label: string
  hint?: string
  errors: string[]
  described?: boolean
  children: JSX.Element
}): JSX.Element {
  return (
    <div class={p.errors.length ? 'field bad' : 'field'}>
      <label for={p.id}>{esc(p.label)}</label>
      {p.children}
      {p.hint ? (
        <span class="hint" id={p.described ? `${p.id}-hint` : undefined}>
          {esc(p.hint)}
        </span>
      ) : (
        ''
      )}
      {p.errors.length ? (
        <p class="err" id={p.described ? `${p.id}-err` : undefined}>
          {esc(p.errors.join('; '))}
        </p>
      ) : (
        ''
      )}
    </div>
  )
}

/** A control's id and its field's errors, from the form's state. */
function fieldOf(name: string, state: FormState): { id: string; errors: string[] } {
  return { id: `f-${name}`, errors: state.errors[name] ?? [] }
}

/** What every labelled control of a form is given. */
export interface ControlProps {
  name: string
  label: string
  state: FormState
  /** The stored value, shown when the form was not just refused. */
  value?: string | null
  hint?: string
}

/**
 * A labelled control (its label, hint and errors framed as every field's): a select, a text area. `control` draws it
 * with its id, whether it is invalid, and its value: what was typed after a refusal, else the stored one.
 */
export function LabelledField(
  p: ControlProps & { control: (id: string, invalid: 'true' | undefined, value: string) => JSX.Element },
): JSX.Element {
  const { id, errors } = fieldOf(p.name, p.state)
  return (
    <FieldFrame id={id} label={p.label} hint={p.hint} errors={errors}>
      {p.control(id, errors.length ? 'true' : undefined, p.state.values?.get(p.name) ?? p.value ?? '')}
    </FieldFrame>
  )
}

/** A labelled input; after a refusal it shows what was typed (never a password) and the field's errors. */
export function Field(p: FieldProps): JSX.Element {
  const { id, errors } = fieldOf(p.name, p.state)
  const typed = p.state.values?.get(p.name)
  const value = p.type === 'password' ? '' : (typed ?? p.value ?? '')
  const described = [p.hint ? `${id}-hint` : '', errors.length ? `${id}-err` : ''].filter(Boolean).join(' ')
  return (
    <FieldFrame id={id} label={p.label} hint={p.hint} errors={errors} described>
      <input
        id={id}
        name={p.name}
        type={p.type ?? 'text'}
        value={esc(value)}
        required={p.required}
        autocomplete={p.autocomplete}
        maxlength={p.maxlength}
        placeholder={p.placeholder ? esc(p.placeholder) : undefined}
        aria-invalid={errors.length ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
    </FieldFrame>
  )
}

export function Select(p: ControlProps & { options: ReadonlyArray<readonly [string, string]> }): JSX.Element {
  return (
    <LabelledField
      {...p}
      control={(id, invalid, chosen) => (
        <select id={id} name={p.name} aria-invalid={invalid}>
          {p.options.map(([v, words]) => (
            <option value={esc(v)} selected={v === chosen}>
              {esc(words)}
            </option>
          ))}
        </select>
      )}
    />
  )
}

/** The refusal of a form in plain words (the contract's message), and field errors not shown beside a field. */
export function Refused({ state, shown = [] }: { state: FormState; shown?: string[] }): JSX.Element {
  const others = Object.entries(state.errors).filter(([k]) => !shown.includes(k))
  if (!state.message && others.length === 0) return ''
  return (
    <div class="notice bad" role="alert" data-code={state.code ? esc(state.code) : undefined}>
      {state.message ? <p class="flush">{esc(state.message)}</p> : ''}
      {others.length ? (
        <ul class="flush">
          {others.map(([k, v]) => (
            <li>
              {esc(k)}: {esc(v.join('; '))}
            </li>
          ))}
        </ul>
      ) : (
        ''
      )}
    </div>
  )
}

export function Notice({ text, kind = 'ok' }: { text: string | null; kind?: 'ok' | 'bad' | 'warn' }): JSX.Element {
  return text ? (
    <div class={`notice ${kind}`} role="status">
      {esc(text)}
    </div>
  ) : (
    ''
  )
}

/** A secret shown once (an API key, a webhook signing secret). */
export function ShownOnce({ label, secret }: { label: string; secret: string }): JSX.Element {
  return (
    <div class="notice warn" role="status">
      <p class="flush-top">
        <strong>{esc(label)}</strong> It is shown only now: copy it to a safe place.
      </p>
      <code class="secret">{esc(secret)}</code>
    </div>
  )
}

/** A timestamp as a person reads it (UTC, minutes), with the exact value for machines. */
export function When({ at }: { at: string | null | undefined }): JSX.Element {
  if (!at) return <span class="muted">never</span>
  return <time datetime={esc(at)}>{esc(at.slice(0, 16).replace('T', ' '))} UTC</time>
}
