// Wires the payment reminders' background task (extensions §14) to the scheduler: every minute, and at start.
import type { Deps } from '../deps'
import { remindDue } from '../modules/reminders'
import type { Job } from './scheduler'

export function reminderJobs(deps: Deps): Job[] {
  // A step is a day's matter; each minute catches a waiting step's try and a claim left by a process that died.
  return [{ name: 'payment-reminders', pattern: '0 * * * * *', atStart: true, run: () => remindDue(deps) }]
}
