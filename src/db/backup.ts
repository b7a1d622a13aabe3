// A consistent copy of a live database file (extensions §12): VACUUM INTO reads one snapshot while the server keeps
// serving and writing, the copy is checked with integrity_check, synced, and only then takes its name.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'libsql'

export class BackupRefused extends Error {}

export interface BackupResult {
  file: string
  bytes: number
  integrity: 'ok'
}

/** Copies the database at `dbFile` (a local path) to `out`, which must not exist yet. */
export function backupFile(dbFile: string, out: string): BackupResult {
  if (existsSync(out)) throw new BackupRefused(`${out} already exists; name a new file (a backup never overwrites one)`)
  if (!existsSync(dirname(out) || '.')) throw new BackupRefused(`the folder of ${out} does not exist`)
  const partial = `${out}.partial-${process.pid}`
  // VACUUM INTO takes an empty file; made 0600 first, because the copy holds everything the database holds.
  closeSync(openSync(partial, 'w', 0o600))
  try {
    const source = new Database(dbFile, { timeout: 5000 } as never)
    try {
      source.prepare('VACUUM INTO ?').run(partial)
    } finally {
      source.close()
    }
    const copy = new Database(partial, { readonly: true } as never)
    let verdict: unknown
    try {
      verdict = (copy.prepare('PRAGMA integrity_check').raw(true).all() as unknown[][]).map((r) => r[0]).join('; ')
    } finally {
      copy.close()
    }
    if (verdict !== 'ok') throw new Error(`the copy failed integrity_check: ${String(verdict).slice(0, 200)}`)
    const fd = openSync(partial, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(partial, out)
    const dir = openSync(dirname(out) || '.', 'r')
    try {
      fsyncSync(dir)
    } finally {
      closeSync(dir)
    }
    return { file: out, bytes: statSync(out).size, integrity: 'ok' }
  } finally {
    rmSync(partial, { force: true })
  }
}
