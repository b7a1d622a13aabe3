// Settings → Reminders (extensions §14): whether overdue documents are reminded by email on a schedule, its steps
// (days from the due date, subject and message with placeholders), and the steps that were refused or wait for
// another try, each with its error, so nothing the schedule could not send goes unseen.
import { PLACEHOLDERS, type ReminderSettings } from '../../../../modules/reminders'
import { FieldErrorBag, InvalidRequest, type FieldErrors } from '../../../../shared/errors'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, Refused, When, esc } from '../../ui'
import { FieldsForm, Section } from '../../settings-parts'
import { type Column, RecordsTable } from '../../list'
import { Area } from '../daily/words'
import { OutboxNote } from '../daily/outbox'
import { SettingsLayout, settingsPage } from './index'

/** Rows the form offers: the most steps a schedule has. */
const ROWS = 5

interface StepNotice {
  document_id: number
  document_number: string | null
  step_days: number
  state: 'refused' | 'waiting'
  error: { type: string; code: string | null; message: string } | null
  next_try_at: string | null
  at: string
}

function dayWords(days: number): string {
  if (days === 0) return 'on the due date'
  return days < 0
    ? `${-days} day${days === -1 ? '' : 's'} before the due date`
    : `${days} day${days === 1 ? '' : 's'} after the due date`
}

async function RemindersPage({ c, form, kit }: { c: InBusiness; form: FormState; kit: AppKit }): Promise<string> {
  const [settings, notices] = await Promise.all([
    kit.operation<ReminderSettings>(c, 'reminder_settings_get'),
    kit.operation<StepNotice[]>(c, 'reminder_steps_notices'),
  ])
  const shown: string[] = ['enabled']
  for (let i = 0; i < ROWS; i++) shown.push(`steps.${i}.days`, `steps.${i}.subject`, `steps.${i}.message`)
  const enabled = form.values ? form.values.get('enabled') === 'on' : settings.enabled
  return (
    <SettingsLayout c={c} title="Reminders" path="/reminders">
      <h1>Payment reminders</h1>
      <p class="lead">
        Issued Invoices and Proforma Invoices still owing are emailed to the Client on each step’s day, with the PDF
        attached: once per step, and after a pause only the latest step that came. A Client can be kept out of reminders
        on its own page.
      </p>
      <OutboxNote c={c} what="each reminder" />
      <Notice text={c.notice} />
      <Section id="rem-h" title="Schedule">
        <Refused state={form} shown={shown} />
        <FieldsForm action={`${c.base}/settings/reminders`} token={c.csrf} id="reminders-form" submit="Save reminders">
          <label class="check">
            <input type="checkbox" name="enabled" checked={enabled} /> Remind overdue documents by email
          </label>
          <p class="hint">
            Placeholders: {PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}. A blank subject or message takes the
            service’s own words. Leave a step’s days blank to remove it.
          </p>
          <>
            {Array.from({ length: ROWS }, (_, i) => {
              const step = settings.steps[i]
              return (
                <fieldset class="stack" id={`step-${i}`}>
                  <legend>
                    Step {i + 1}
                    {step && !form.values ? ` (${esc(dayWords(step.days))})` : ''}
                  </legend>
                  <Field
                    name={`steps.${i}.days`}
                    label="Days from the due date"
                    type="number"
                    state={form}
                    value={step ? String(step.days) : ''}
                    hint="-30 to 365; negative: before the due date"
                  />
                  <Field
                    name={`steps.${i}.subject`}
                    label="Subject"
                    state={form}
                    value={step?.subject ?? ''}
                    maxlength={200}
                    placeholder="Reminder: Invoice {{number}} from {{business}}"
                  />
                  <Area name={`steps.${i}.message`} label="Message" state={form} value={step?.message ?? ''} rows={4} />
                </fieldset>
              )
            })}
          </>
        </FieldsForm>
      </Section>
      <Section id="notices-h" title="Reminders not sent" sectionId="reminder-notices">
        {notices.length === 0 ? (
          <p class="flush">None: every reminder due so far went out.</p>
        ) : (
          <RecordsTable columns={NOTICE_COLUMNS(c.base)} rows={notices} />
        )}
      </Section>
    </SettingsLayout>
  )
}

/** The reminders a step could not send, one row each: on a phone each stacks into a card. */
const NOTICE_COLUMNS = (base: string): Column<StepNotice>[] => [
  {
    head: 'Document',
    key: true,
    nowrap: true,
    cell: (n) => (
      <a href={esc(`${base}/documents/${n.document_id}`)}>{esc(n.document_number ?? `#${n.document_id}`)}</a>
    ),
  },
  { head: 'Step', cell: (n) => <>{esc(dayWords(n.step_days))}</> },
  {
    head: 'What happened',
    cell: (n) => (
      <>
        {esc(n.error?.message ?? '')}
        {n.state === 'waiting' && n.next_try_at ? (
          <>
            {' '}
            <span class="hint">
              Tried again from <When at={n.next_try_at} />.
            </span>
          </>
        ) : (
          ''
        )}
      </>
    ),
  },
  { head: 'When', nowrap: true, cell: (n) => <When at={n.at} /> },
]

/**
 * The posted rows as the API's body: rows with blank days are left out, and the API's field errors (by the body's
 * step index) are named by the form's row again.
 */
function readSteps(d: URLSearchParams) {
  const bag = new FieldErrorBag()
  const rows: number[] = []
  const steps: Array<{ days: number; subject: string | null; message: string | null }> = []
  for (let i = 0; i < ROWS; i++) {
    const raw = d.get(`steps.${i}.days`)?.trim() ?? ''
    if (raw === '') continue
    if (!/^-?\d{1,4}$/.test(raw)) {
      bag.add(`steps.${i}.days`, 'must be a whole number')
      continue
    }
    rows.push(i)
    steps.push({
      days: Number(raw),
      subject: d.get(`steps.${i}.subject`)?.trim() || null,
      message: d.get(`steps.${i}.message`)?.replace(/\r\n/g, '\n').trim() || null,
    })
  }
  return { bag, rows, steps }
}

function rowErrors(e: InvalidRequest, rows: number[]): InvalidRequest {
  const errors: FieldErrors = {}
  for (const [k, v] of Object.entries(e.errors)) {
    const key = k.replace(/^steps\.(\d+)/, (_m, n: string) => `steps.${rows[Number(n)] ?? n}`)
    errors[key] = [...(errors[key] ?? []), ...v]
  }
  return new InvalidRequest(errors)
}

export function remindersSettings(kit: AppKit): void {
  const page = settingsPage(kit, '/settings/reminders', (c, form) => <RemindersPage c={c} form={form} kit={kit} />)
  page.action('', async (c, d) => {
    const { bag, rows, steps } = readSteps(d)
    bag.throwIfAny()
    try {
      await kit.operation(c, 'reminder_settings_update', { body: { enabled: d.get('enabled') === 'on', steps } })
    } catch (e) {
      throw e instanceof InvalidRequest ? rowErrors(e, rows) : e
    }
    return kit.done(c, '/settings/reminders', 'saved')
  })
}
