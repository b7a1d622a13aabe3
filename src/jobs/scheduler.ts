// The in-process scheduler: croner runs each background job on its timetable; jobs are plain functions.
import { Cron } from 'croner'
import { errorFacts, type Logger } from '../shared/logger'

export interface Job {
  name: string
  /** croner pattern, seconds first when six fields are given, in UTC. */
  pattern: string
  run: () => Promise<unknown>
  /** Also run once when the scheduler starts (a job that catches up on what came while the server was stopped). */
  atStart?: boolean
}

export interface Scheduler {
  /** No job starts after this; resolves once the runs under way have ended (or `graceMs` has passed). */
  stop(graceMs?: number): Promise<void>
}

/**
 * Runs the jobs on their timetables from `afterMs` on. A server starts them a moment after it listens: making their
 * timetables (croner's first searches run cold) is 10-20 ms that its first answers need not wait for, and a job that
 * runs each second runs within a second of that anyway.
 */
export function startScheduler(jobs: Job[], logger: Logger, afterMs = 0): Scheduler {
  // Runs under way, so a shutdown closes the database only after them (a delivery writes its outcome after its POST).
  const running = new Set<Promise<void>>()
  let crons: Cron[] = []
  const start = () => {
    crons = jobs.map(
      (job) =>
        // Times are read in UTC (utcOffset 0): croner otherwise reads the local time zone, and the runtime's first
        // local time costs 10-20 ms (time zone data loaded). The jobs' timetables say UTC.
        new Cron(job.pattern, { protect: true, name: job.name, utcOffset: 0 }, async () => {
          const run = (async () => {
            try {
              await job.run()
            } catch (e) {
              logger.error('job failed', { job: job.name, ...errorFacts(e) })
            }
          })()
          running.add(run)
          await run
          running.delete(run)
        }),
    )
    // trigger() runs the job as its timetable would, under the same protection against overlapping runs.
    jobs.forEach((job, i) => job.atStart && void crons[i]!.trigger())
  }
  const later = afterMs > 0 ? setTimeout(start, afterMs) : (start(), null)
  return {
    async stop(graceMs = 20_000) {
      if (later) clearTimeout(later)
      crons.forEach((c) => c.stop())
      await Promise.race([Promise.all(running), Bun.sleep(graceMs)])
    },
  }
}
