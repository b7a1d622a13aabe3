// Opens the database: one writer connection (writes serialised behind a mutex) and a separate reader.
import { closeSync, existsSync, openSync } from 'node:fs'
import { createClient, type Client, type InArgs } from '@libsql/client'
import { sql, type SQLWrapper } from 'drizzle-orm'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core'
import { Mutex } from './mutex'
import { openHotReader, type HotReader } from './hot'
import { registerHotReader } from './hot-shape'
import { openBulkWriter } from './bulk'
import { openPreparedWriter } from './prepared-writer'
import { markedTransaction } from './commit-marker'
import { lockedBox, type SecretBox } from '../shared/secret-box'
import { whileBusy } from './busy'

// No schema is handed to drizzle: nothing uses its relational queries (db.query), and with a schema each drizzle() walks
// every table to build their config (about 1 ms of a server's start for the two connections, issue 34).
export type Db = LibSQLDatabase
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Either the plain reader or an open transaction: repos take this so a service can read inside its transaction. */
export type Queryable = Db | Tx

/**
 * What a plain-SQL repo asks of a connection: drizzle `sql` templates through all() and run(), nothing of the query
 * builder. The reader, a drizzle transaction and the Payment path's prepared transaction (db/prepared-writer.ts) all
 * offer it, so a function typed with it can be handed any of them and the type checker refuses the query builder in it.
 */
export interface SqlTx {
  all<T>(query: SQLWrapper): Promise<T[]>
  run(query: SQLWrapper): Promise<{ rowsAffected: number; lastInsertRowid?: number | bigint | undefined }>
}

export interface Database {
  /** Reads outside a transaction; never blocks behind a write. */
  readonly read: Db
  /** Prepared-statement reads for the hottest paths (auth, one Client); null for remote databases. */
  readonly hot: HotReader | null
  /** Runs fn in one IMMEDIATE transaction on the writer; writes of this process never overlap. */
  write<T>(fn: (tx: Tx) => Promise<T>): Promise<T>
  /**
   * write() on the prepared-statement connection (src/db/prepared-writer.ts), for the Payment path: fn gets a SqlTx,
   * `tx.all(sql…)` and `tx.run(sql…)` (drizzle `sql` templates) and nothing of the query builder, so the type checker
   * refuses any function on that path that would use more. Same mutex, same settings; remote URLs fall back to write().
   */
  writePrepared<T>(fn: (tx: SqlTx) => Promise<T>): Promise<T>
  /**
   * Appends bookkeeping rows (values in column order) in one short transaction, behind the same write mutex so it
   * never meets this process's own writer; committed without waiting for the disk (nobody was answered about
   * these rows; the next ordinary commit syncs them). Remote URLs fall back to an ordinary transaction.
   */
  append(sql: string, rows: unknown[][]): Promise<void>
  /**
   * Runs fn behind the same write mutex with plain statements on the writer's connection, outside any transaction:
   * drizzle `sql` templates rendered by its dialect and run by @libsql/client, not through drizzle's session. For what a
   * process reads (and makes when missing) as it opens the database and builds its doors (the secrets): the writer has
   * read the schema already, and drizzle's first query through its session costs a start 2-3 ms (issue 34).
   */
  plain<T>(fn: (s: SqlTx) => Promise<T>): Promise<T>
  /**
   * Moves the WAL into the main file (a local file only): TRUNCATE at shutdown, so the .db file alone holds every
   * commit; PASSIVE after a CLI command, which never waits for another process's readers.
   */
  checkpoint(mode?: 'TRUNCATE' | 'PASSIVE'): Promise<void>
  /** Asks every connection to hand back the page cache it holds (PRAGMA shrink_memory), for an idle server. */
  shrinkMemory(): Promise<void>
  /** The writer itself, for the migrator; callers outside db/ use write(). */
  readonly writer: Db
  readonly writerClient: Client
  readonly url: string
  /**
   * The local file's path when the libSQL driver's fast paths are in use (hot reader, bulk and prepared writers);
   * null for a libSQL server, or a file opened through @libsql/client only. Side stores (the rate count) follow it.
   */
  readonly nativeFile: string | null
  /** Seals and opens secrets at rest; locked until createDeps has checked the key (src/db/secrets.ts). */
  secrets: SecretBox
  /** A separate @libsql/client for `url` (default: this database) with this database's credentials, for side stores. */
  connect(url?: string): Client
  close(): void
}

export interface OpenOptions {
  /** INVOICING_DB_AUTH_TOKEN, for a libSQL server. */
  authToken?: string
  /** false: a local file is used through @libsql/client alone, as a libSQL server is (tests of the fallbacks). */
  native?: boolean
}

/** A raw statement with positional arguments, for the remote fallback of append(). */
function sqlWithArgs(statement: string, args: unknown[]) {
  const parts = statement.split('?')
  return sql.join(parts.map((p, i) => (i < args.length ? sql`${sql.raw(p)}${args[i]}` : sql.raw(p))))
}

const dialect = new SQLiteSyncDialect()

/** A SqlTx whose statements @libsql/client runs as they come (each its own transaction). */
function plainStatements(client: Client): SqlTx {
  const statement = (query: SQLWrapper) => {
    const q = dialect.sqlToQuery(query.getSQL())
    return { sql: q.sql, args: q.params as InArgs }
  }
  return {
    async all<T>(query: SQLWrapper) {
      return (await client.execute(statement(query))).rows as unknown as T[]
    },
    async run(query: SQLWrapper) {
      const r = await client.execute(statement(query))
      return { rowsAffected: r.rowsAffected, lastInsertRowid: r.lastInsertRowid }
    },
  }
}

/** Accepts a plain path or a libSQL URL; a path becomes a file: URL. */
export function toDbUrl(pathOrUrl: string): string {
  if (/^(file|libsql|http|https|ws|wss):/.test(pathOrUrl)) return pathOrUrl
  return `file:${pathOrUrl}`
}

// Per-connection settings. The writer has exactly one connection (concurrency 1) that the pool keeps
// open and reuses after every transaction, so these stay in force; test/db.test.ts checks it.
// secure_delete FAST: a value overwritten in place (a secret sealed where its plaintext stood) leaves no copy in the
// page, at no extra I/O.
const WRITER_PRAGMAS = [
  'PRAGMA synchronous = FULL',
  'PRAGMA foreign_keys = ON',
  'PRAGMA busy_timeout = 5000',
  'PRAGMA secure_delete = FAST',
]
const READER_PRAGMAS = ['PRAGMA busy_timeout = 5000', 'PRAGMA query_only = ON']

/**
 * Creates a missing database file empty with mode 0600 before SQLite opens it: SQLite makes a new file 0644 (world
 * readable under the usual umask), and its -wal and -shm files take the main file's mode, so all three are the
 * owner's alone. An existing file keeps the mode its owner gave it.
 */
function createPrivately(url: string): void {
  const path = url.slice('file:'.length).split('?')[0]!
  if (!path || path === ':memory:' || existsSync(path)) return
  closeSync(openSync(path, 'a', 0o600))
}

/**
 * Opens every connection. A process starting while another migrates a new file can meet SQLITE_BUSY where SQLite
 * does not wait on its busy handler (switching to WAL, a first read of the WAL index): what was opened is closed and
 * the whole open is tried again, as long as a start waits for the write lock (db/busy.ts).
 */
export async function openDatabase(pathOrUrl: string, opts: OpenOptions = {}): Promise<Database> {
  return whileBusy(() => openOnce(pathOrUrl, opts))
}

async function openOnce(pathOrUrl: string, opts: OpenOptions): Promise<Database> {
  const url = toDbUrl(pathOrUrl)
  const local = url.startsWith('file:')
  if (local) createPrivately(url)
  const native = local && opts.native !== false
  const opened: { close(): void }[] = []
  const keep = <T extends { close(): void } | null>(c: T): T => (c && opened.push(c), c)
  try {
    return await connect(url, local, native, opts, keep)
  } catch (e) {
    for (const c of opened.reverse()) c.close()
    throw e
  }
}

async function connect(
  url: string,
  local: boolean,
  native: boolean,
  opts: OpenOptions,
  keep: <T extends { close(): void } | null>(c: T) => T,
): Promise<Database> {
  // intMode number: ids and counters fit in 2^53; money is kept as exact decimal text, never as a JS number.
  const writerClient = keep(createClient({ url, concurrency: 1, intMode: 'number', authToken: opts.authToken }))
  // The busy timeout first: switching a new file to WAL takes a lock another process starting at once may hold.
  if (local) {
    await writerClient.execute('PRAGMA busy_timeout = 5000')
    await writerClient.execute('PRAGMA journal_mode = WAL')
    for (const p of WRITER_PRAGMAS) await writerClient.execute(p)
  }
  const readerClient = keep(createClient({ url, concurrency: 1, intMode: 'number', authToken: opts.authToken }))
  if (local) for (const p of READER_PRAGMAS) await readerClient.execute(p)

  const writer = drizzle(writerClient)
  const read = drizzle(readerClient)
  const mutex = new Mutex()
  const hot = keep(native ? openHotReader(url) : null)
  registerHotReader(read, hot)
  const bulk = keep(native ? openBulkWriter(url) : null)
  const prepared = keep(native ? openPreparedWriter(url) : null)

  return {
    read,
    hot,
    writer,
    writerClient,
    url,
    nativeFile: native ? url.slice('file:'.length) : null,
    secrets: lockedBox,
    connect: (other = url) => createClient({ url: other, intMode: 'number', authToken: opts.authToken }),
    // A keyed request's idempotency mark commits in the first write transaction of its work (db/commit-marker.ts).
    write: (fn) => mutex.run(() => markedTransaction((body) => writer.transaction(body as never), fn)),
    // Both connections offer a SqlTx: the prepared one exactly, a drizzle transaction among its other methods.
    writePrepared<T>(fn: (tx: SqlTx) => Promise<T>) {
      return mutex.run(() =>
        markedTransaction<T, SqlTx>((body) => (prepared ? prepared.transaction(body) : writer.transaction(body)), fn),
      )
    },
    plain: (fn) => mutex.run(() => fn(plainStatements(writerClient))),
    append: (statement, rows) =>
      mutex.run(async () => {
        if (bulk) await bulk.append(statement, rows)
        else
          await writer.transaction(async (tx) => {
            for (const r of rows) await tx.run(sqlWithArgs(statement, r))
          })
      }),
    async checkpoint(mode = 'TRUNCATE') {
      if (!local) return
      await mutex.run(() => writerClient.execute(`PRAGMA wal_checkpoint(${mode})`))
    },
    async shrinkMemory() {
      // A libSQL server's memory is its own business.
      if (!local) return
      await mutex.run(async () => {
        await writerClient.execute('PRAGMA shrink_memory')
        await bulk?.shrink()
        prepared?.shrink()
      })
      await readerClient.execute('PRAGMA shrink_memory')
      hot?.shrink()
    },
    close() {
      prepared?.close()
      bulk?.close()
      hot?.close()
      readerClient.close()
      writerClient.close()
    },
  }
}
