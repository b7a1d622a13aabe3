// A Business's reminder settings (extensions §14): read (the defaults until saved) and replaced, every field judged.
import type { Database, Queryable } from '../../db/client'
import type { Clock } from '../../shared/clock'
import { FieldErrorBag } from '../../shared/errors'
import type { ReminderSettingsInput } from './reminders.model'
import { findSettings, saveSettings } from './reminders.repo'
import { DEFAULT_SETTINGS, PLACEHOLDERS, sortedSteps, unknownPlaceholders, type ReminderSettings } from './steps'

export async function readReminderSettings(q: Queryable, businessId: number): Promise<ReminderSettings> {
  const row = await findSettings(q, businessId)
  if (!row) return DEFAULT_SETTINGS
  return { enabled: row.enabled, steps: sortedSteps(JSON.parse(row.steps) as ReminderSettings['steps']) }
}

const blankToNull = (s: string | null | undefined): string | null => (s?.trim() ? s.trim() : null)

const known = PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')

/** Replaces the settings; a step's blank subject or message is null (the default words). Answers them as saved. */
export async function putReminderSettings(
  deps: { db: Database; clock: Clock },
  businessId: number,
  input: ReminderSettingsInput,
): Promise<ReminderSettings> {
  const bag = new FieldErrorBag()
  const seen = new Set<number>()
  const steps = input.steps.map((s, i) => {
    if (seen.has(s.days)) bag.add(`steps.${i}.days`, "must differ from every other step's days")
    seen.add(s.days)
    const subject = blankToNull(s.subject)
    const message = blankToNull(s.message)
    // A subject is a header: a line break in it would end the header (or start another).
    if (subject && /[\r\n]/.test(subject)) bag.add(`steps.${i}.subject`, 'must be one line')
    for (const [field, text] of [
      ['subject', subject],
      ['message', message],
    ] as const) {
      const unknown = text ? unknownPlaceholders(text) : []
      if (unknown.length)
        bag.add(
          `steps.${i}.${field}`,
          `holds ${unknown.map((u) => `{{${u}}}`).join(', ')}, which the service does not fill; use ${known}`,
        )
    }
    return { days: s.days, subject, message }
  })
  bag.throwIfAny()
  const sorted = sortedSteps(steps)
  await deps.db.write((tx) => saveSettings(tx, businessId, input.enabled, sorted, deps.clock.now().toISOString()))
  return { enabled: input.enabled, steps: sorted }
}
