// Operations of payment reminders (extensions §14): a Business's reminder settings through the API and MCP; the
// application's list of steps that need a person's eye.
import { json, type ApplicationOperation, type Operation } from '../../platform/operation'
import { ReminderSettingsBody, ReminderSettingsSchema, type ReminderSettingsInput } from './reminders.model'
import { stepNotices } from './reminders.repo'
import { putReminderSettings, readReminderSettings } from './reminders.service'

const tag = 'Reminders'

export const remindersOperations: Operation[] = [
  {
    name: 'reminder_settings_get',
    tag,
    summary: "The Business's payment reminder settings",
    description:
      'Whether overdue documents are reminded by email on a schedule, and its steps (`days` from the due date, negative before it; `subject` and `message` with placeholders, null for the default words), sorted by days. Until saved: disabled, steps 7, 14 and 30.',
    http: { method: 'GET', path: '/v1/reminder-settings', status: 200 },
    output: ReminderSettingsSchema,
    access: 'read',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, _input, { deps }) {
      return json(await readReminderSettings(deps.db.read, actor.businessId))
    },
  },
  {
    name: 'reminder_settings_update',
    tag,
    summary: "Replace the Business's payment reminder settings",
    description:
      'Sets `enabled` and the steps (at most 5, each `days` -30 to 365 and distinct; `subject` at most 200 characters on one line, `message` at most 5,000; each may hold {{number}}, {{amount_due}}, {{due_date}}, {{days_overdue}}, {{client}}, {{business}}, {{link}}). Each step whose day has come is emailed once per issued, unpaid Invoice or never-converted Proforma whose Client takes reminders, with the PDF attached; after a stop only the latest step that came is sent.',
    http: { method: 'PUT', path: '/v1/reminder-settings', status: 200 },
    body: ReminderSettingsBody,
    output: ReminderSettingsSchema,
    access: 'admin',
    idempotent: false,
    refusals: [],
    mcp: true,
    async run(actor, { body }, { deps }) {
      return json(await putReminderSettings(deps, actor.businessId, body as ReminderSettingsInput))
    },
  },
]

/** The application's view of the schedule: the steps refused or waiting, with their errors. */
export const remindersAppOperations: ApplicationOperation[] = [
  {
    name: 'reminder_steps_notices',
    description: 'The latest reminder steps that were refused or wait for another try, with their errors.',
    access: 'read',
    refusals: [],
    async run(actor, _input, { deps }) {
      const rows = await stepNotices(deps.db.read, actor.businessId, 50)
      return json(
        rows.map((r) => ({
          document_id: r.documentId,
          document_number: r.documentNumber,
          step_days: r.stepDays,
          state: r.state,
          error: r.error ? (JSON.parse(r.error) as { type: string; code: string | null; message: string }) : null,
          next_try_at: r.nextTryAt,
          at: r.updatedAt,
        })),
      )
    },
  },
]
