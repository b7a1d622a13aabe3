// Waiting out another process's write lock at start: two servers started at once on a new file, one migrating while
// the other waits. Each wait inside is the busy timeout (5 s); a large migration on a slow or busy machine may hold the
// lock longer, so the writes a start makes (migrations, the key check, the service's own secrets) try again until
// `ms` have passed rather than failing the start on the first SQLITE_BUSY.
export const START_LOCK_WAIT_MS = 120_000

export function isBusy(e: unknown): boolean {
  return /SQLITE_BUSY|database is locked/i.test(String((e as Error)?.message ?? e))
}

export async function whileBusy<T>(fn: () => Promise<T>, ms = START_LOCK_WAIT_MS): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    try {
      return await fn()
    } catch (e) {
      if (!isBusy(e) || Date.now() > deadline) throw e
      await Bun.sleep(50)
    }
  }
}
