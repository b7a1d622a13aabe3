// Time is injected: every reader of "now" goes through a Clock so tests can pin and advance it.

export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock tests set by hand; it never moves unless told to. */
export class FixedClock implements Clock {
  private ms: number
  constructor(start: Date | string = '2026-01-15T10:00:00.000Z') {
    this.ms = new Date(start).getTime()
  }
  now(): Date {
    return new Date(this.ms)
  }
  set(at: Date | string): void {
    this.ms = new Date(at).getTime()
  }
  advance(ms: number): void {
    this.ms += ms
  }
}

/** A clock that starts at `start` and runs at the pace of real time (a test server started "days later"). */
export function clockFrom(start: Date | string): Clock {
  const offset = new Date(start).getTime() - Date.now()
  return { now: () => new Date(Date.now() + offset) }
}
