/**
 * Locates the drizzle migrations folder (meta/_journal.json + NNNN_tag.sql).
 *
 * - From source (`bun src/main.ts`): the real `<repo>/migrations` folder
 *   (this file lives at src/db/, so it is ../../migrations).
 * - Compiled (`dist/invoicing`): scripts/build.ts embeds the folder via
 *   `compile.assets`, so Bun serves it read-only at `/$bunfs/root/migrations`
 *   (import.meta.dir is `/$bunfs/root` inside a standalone executable), and
 *   node:fs existsSync/readFileSync -- all drizzle's migrator uses -- work on it.
 *   If that virtual path is ever missing, the files listed in Bun.embeddedFiles
 *   are written to a fresh temp dir instead.
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const PREFIX = 'migrations/'
const JOURNAL = 'meta/_journal.json'

let cached: Promise<string> | undefined

export function isCompiled(): boolean {
  // Linux/macOS: /$bunfs/root ; Windows: B:\~BUN\root
  return import.meta.dir.startsWith('/$bunfs/') || import.meta.dir.includes('~BUN')
}

export function migrationsFolder(): Promise<string> {
  cached ??= resolveFolder()
  return cached
}

async function resolveFolder(): Promise<string> {
  if (!isCompiled()) {
    const dir = join(import.meta.dir, '..', '..', 'migrations')
    if (!existsSync(join(dir, JOURNAL))) throw new Error(`migrations not found at ${dir}`)
    return dir
  }
  const embedded = join(import.meta.dir, 'migrations')
  if (existsSync(join(embedded, JOURNAL))) return embedded
  return extractEmbeddedMigrations()
}

/** Fallback: copy the embedded migration files to a temp dir. */
export async function extractEmbeddedMigrations(): Promise<string> {
  const files = Bun.embeddedFiles.filter((f) => (f as Blob & { name: string }).name.startsWith(PREFIX))
  if (files.length === 0) throw new Error('no embedded migrations in this executable')
  const out = mkdtempSync(join(tmpdir(), 'invoicing-migrations-'))
  for (const f of files) {
    const dest = join(out, (f as Blob & { name: string }).name.slice(PREFIX.length))
    mkdirSync(dirname(dest), { recursive: true })
    writeFileSync(dest, new Uint8Array(await f.arrayBuffer()))
  }
  if (!existsSync(join(out, JOURNAL))) throw new Error(`embedded migrations lack ${JOURNAL}`)
  return out
}
