// Answers of list pages, kept as JSON text until anything in the database changes.
//
// A page of Clients or Products is a function of the stored rows alone, and integrations poll the same pages again
// and again (sync jobs walk a list; dashboards reload its first page). A 100-row page costs about 0.4 ms of the one
// JavaScript thread to read and serialise; a kept one costs a map lookup. SQLite's `PRAGMA data_version`, read on the
// hot reader's connection, changes whenever any other connection commits (this process's writer, the request-log
// appender, the CLI or another server on the same file), so a kept page never outlives the rows it was built from.

export class PageCache {
  private version: number | null = null
  private readonly pages = new Map<string, string>()
  private size = 0

  /**
   * @param dataVersion reads `PRAGMA data_version` on a connection that never writes
   * @param maxChars    bound on the text kept (about a byte a character for the mostly-ASCII answers)
   */
  constructor(
    private readonly dataVersion: () => number,
    private readonly maxChars = 4_000_000,
  ) {}

  /**
   * The database's version now, read before the page is: a commit landing between the two makes the page newer than
   * its version, and the next look at the version drops it; the other order could keep a page older than its version.
   */
  current(): number {
    const v = this.dataVersion()
    if (v !== this.version) {
      this.clear()
      this.version = v
    }
    return v
  }

  get(key: string): string | undefined {
    const body = this.pages.get(key)
    if (body !== undefined) {
      // Least recently used first out: a Map iterates in insertion order, so a hit moves to the end.
      this.pages.delete(key)
      this.pages.set(key, body)
    }
    return body
  }

  /** Keeps a page built while the database was at `version`; a page of an older version is not kept. */
  put(key: string, body: string, version: number): void {
    if (version !== this.version || body.length > this.maxChars / 4) return
    const old = this.pages.get(key)
    if (old !== undefined) {
      this.pages.delete(key)
      this.size -= old.length
    }
    for (const [k, v] of this.pages) {
      if (this.size + body.length <= this.maxChars) break
      this.pages.delete(k)
      this.size -= v.length
    }
    this.pages.set(key, body)
    this.size += body.length
  }

  clear(): void {
    this.pages.clear()
    this.size = 0
  }
}
