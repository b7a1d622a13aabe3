// `invoicing reminders show|set|run`: a Business's payment reminder settings (extensions §14), and one run of the
// background task that sends the reminder steps due now (the one the server runs every minute).
import { Value } from '@sinclair/typebox/value'
import type { Deps } from '../deps'
import { resolveBusiness } from '../modules/business'
import { putReminderSettings, readReminderSettings, ReminderSettingsBody, remindDue } from '../modules/reminders'
import { FieldErrorBag } from '../shared/errors'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

export const REMINDERS_USAGE = [
  'reminders show BUSINESS_ID',
  'reminders set BUSINESS_ID [--enabled true|false] [--days 7,14,30]',
  'reminders run',
]

const USAGE = `usage: ${REMINDERS_USAGE.map((u) => `invoicing ${u}`).join(' | ')}`

function enabledOf(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined
  if (v === 'true' || v === 'false') return v === 'true'
  throw new UsageError('--enabled must be true or false')
}

/** The steps' days as written (`7,14,30`); a step kept keeps its own words. */
function daysOf(v: string | undefined): number[] | undefined {
  if (v === undefined) return undefined
  if (v.trim() === '') return []
  return v.split(',').map((d) => {
    if (!/^\s*-?\d{1,4}\s*$/.test(d))
      throw new UsageError(`--days must be whole numbers separated by commas, not "${d}"`)
    return Number(d)
  })
}

export async function remindersCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref] = args.words
  if (sub === 'show') {
    allowOnly(args, [])
    if (!ref) throw new UsageError(USAGE)
    const b = await resolveBusiness(deps.db.read, ref)
    return print(args, { business_id: b.publicId, ...(await readReminderSettings(deps.db.read, b.id)) })
  }
  if (sub === 'set') {
    allowOnly(args, ['enabled', 'days'])
    if (!ref) throw new UsageError(USAGE)
    const enabled = enabledOf(args.options.enabled)
    const days = daysOf(args.options.days)
    if (enabled === undefined && days === undefined) throw new UsageError('give --enabled, --days or both')
    const b = await resolveBusiness(deps.db.read, ref)
    const current = await readReminderSettings(deps.db.read, b.id)
    const body = {
      enabled: enabled ?? current.enabled,
      steps:
        days?.map((d) => current.steps.find((s) => s.days === d) ?? { days: d, subject: null, message: null }) ??
        current.steps,
    }
    // Held to the API's schema, so a day out of range is refused in the API's words, named by its option.
    const bag = new FieldErrorBag()
    for (const e of Value.Errors(ReminderSettingsBody, body)) {
      if (/^\/steps\/\d+\/days$/.test(e.path)) bag.add('--days', `${e.value} is not a step: days are -30 to 365`)
      else if (e.path === '/steps') bag.add('--days', 'at most 5 steps')
    }
    bag.throwIfAny()
    const saved = await putReminderSettings(deps, b.id, body)
    return print(args, { business_id: b.publicId, ...saved })
  }
  if (sub === 'run') {
    allowOnly(args, [])
    return print(args, await remindDue(deps))
  }
  throw new UsageError(USAGE)
}
