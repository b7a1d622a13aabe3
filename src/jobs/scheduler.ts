// The in-process scheduler: croner runs each background job on its timetable; jobs are plain functions.
import { Cron } from 'croner'
import { errorFacts, type Logger } from '../shared/logger'

export interface Job {
  name: string
  /** croner pattern, seconds first when six fields are given. */
  pattern: string
  run: () => Promise<unknown>
}

export interface Scheduler {
  stop(): void
}

export function startScheduler(jobs: Job[], logger: Logger): Scheduler {
  const crons = jobs.map(
    (job) =>
      new Cron(job.pattern, { protect: true, name: job.name }, async () => {
        try {
          await job.run()
        } catch (e) {
          logger.error('job failed', { job: job.name, ...errorFacts(e) })
        }
      }),
  )
  return { stop: () => crons.forEach((c) => c.stop()) }
}
