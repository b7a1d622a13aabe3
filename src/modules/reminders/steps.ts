// The rules of a reminder schedule (extensions §14), pure: the default steps, when a step comes, which step a
// document is due now (only the latest that has come: a catch-up never sends a burst), and the placeholders. The
// default words of a step are a reminder's, in the document's language (mail module, extensions §18).
import { addDays } from '../../shared/dates'

export interface ReminderStep {
  /** Counted from the due date; negative: before it. */
  days: number
  /** null: the service's default words. */
  subject: string | null
  message: string | null
}

export interface ReminderSettings {
  enabled: boolean
  steps: ReminderStep[]
}

export const MIN_STEP_DAYS = -30
export const MAX_STEP_DAYS = 365
export const MAX_STEPS = 5
export const MAX_SUBJECT = 200
export const MAX_MESSAGE = 5000

/** A Business that never saved its settings: disabled, reminded 7, 14 and 30 days after the due date. */
export const DEFAULT_SETTINGS: ReminderSettings = {
  enabled: false,
  steps: [7, 14, 30].map((days) => ({ days, subject: null, message: null })),
}

export const PLACEHOLDERS = ['number', 'amount_due', 'due_date', 'days_overdue', 'client', 'business', 'link'] as const
export type Placeholder = (typeof PLACEHOLDERS)[number]

/** Sorted by days, as the answer gives them and the schedule reads them. */
export function sortedSteps<T extends { days: number }>(steps: readonly T[]): T[] {
  return [...steps].sort((a, b) => a.days - b.days)
}

/** The day a step comes for a document due on `dueDate`; null beyond the calendar. */
export function stepDate(dueDate: string, days: number): string | null {
  return addDays(dueDate, days)
}

/**
 * The step a document should be reminded of on `today`: the latest whose day has come, or null when none has. The
 * earlier ones count as passed: after a stop over several steps, the Client gets one reminder, not three.
 */
export function latestStepDue<T extends { days: number }>(
  dueDate: string,
  steps: readonly T[],
  today: string,
): T | null {
  let latest: T | null = null
  for (const s of sortedSteps(steps)) {
    const day = stepDate(dueDate, s.days)
    if (day !== null && day <= today) latest = s
  }
  return latest
}

/** Whole days from the due date to today; 0 before it. */
export function daysOverdue(dueDate: string, today: string): number {
  const d = Math.round((Date.parse(today) - Date.parse(dueDate)) / 86_400_000)
  return d > 0 ? d : 0
}

const PLACEHOLDER_RE = /\{\{\s*([a-z_]+)\s*\}\}/g

/** The placeholders written in a text that the service does not know (each reported once). */
export function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(PLACEHOLDERS)
  const unknown = new Set<string>()
  for (const m of text.matchAll(PLACEHOLDER_RE)) if (!known.has(m[1]!)) unknown.add(m[1]!)
  return [...unknown]
}

/** Replaces each placeholder by its value; the values are inserted as they are, never read again as placeholders. */
export function fillPlaceholders(text: string, values: Record<Placeholder, string>): string {
  return text.replace(PLACEHOLDER_RE, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name as Placeholder] : whole,
  )
}
