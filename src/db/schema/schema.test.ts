// The tables in TypeScript (this folder, many built from the shared helpers of columns.ts) describe the database the
// hand-written migrations make: the queries drizzle builds name only what is there, with the same types and rules.
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { is } from 'drizzle-orm'
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { openDatabase } from '../client'
import { applyMigrations } from '../migrate'
import * as schema from '.'

const dir = mkdtempSync(join(tmpdir(), 'invoicing-schema-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const tables = Object.values(schema as Record<string, unknown>)
  .filter((t): t is SQLiteTable => is(t, SQLiteTable))
  .map((t) => getTableConfig(t))

/** One table as TypeScript declares it, in the terms SQLite's PRAGMAs answer. */
function declared(t: (typeof tables)[number]) {
  return {
    columns: t.columns
      .map((c) => ({
        name: c.name,
        type: c.getSQLType(),
        notNull: c.notNull,
        hasDefault: c.hasDefault && !c.primary,
        primaryKey: c.primary || t.primaryKeys.some((k) => k.columns.includes(c)),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    foreignKeys: t.foreignKeys
      .map((fk) => {
        const r = fk.reference()
        return `${r.columns[0]!.name} -> ${getTableConfig(r.foreignTable).name}.${r.foreignColumns[0]!.name} ON DELETE ${(fk.onDelete ?? 'no action').toUpperCase()}`
      })
      .sort(),
    indexes: [
      ...t.indexes.map((i) => ({
        name: i.config.name,
        unique: i.config.unique,
        columns: i.config.columns.map((c) => (c as { name: string }).name),
      })),
      ...t.columns.filter((c) => c.isUnique).map((c) => ({ name: c.uniqueName!, unique: true, columns: [c.name] })),
    ].sort((a, b) => a.name.localeCompare(b.name)),
  }
}

test('every table, column (type, NOT NULL, default, key), foreign key and index the schema declares is the migrated database’s, and no table is missing', async () => {
  const db = await openDatabase(join(dir, 'a.db'))
  try {
    await applyMigrations(db)
    const ask = async (q: string) => (await db.writerClient.execute(q)).rows as unknown as Record<string, unknown>[]
    const made = (await ask(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`))
      .map((r) => String(r.name))
      .filter((n) => n !== 'sqlite_sequence' && n !== '__drizzle_migrations')
    expect(tables.map((t) => t.name).sort()).toEqual(made)
    for (const t of tables) {
      const columns = (await ask(`PRAGMA table_info("${t.name}")`))
        .map((c) => ({
          name: String(c.name),
          type: String(c.type).toLowerCase(),
          notNull: c.notnull === 1 || c.pk !== 0,
          hasDefault: c.dflt_value !== null,
          primaryKey: c.pk !== 0,
        }))
        .sort((a, b) => a.name.localeCompare(b.name))
      const foreignKeys = (await ask(`PRAGMA foreign_key_list("${t.name}")`))
        .map((f) => `${f.from} -> ${f.table}.${f.to} ON DELETE ${f.on_delete}`)
        .sort()
      const indexes = []
      for (const i of await ask(`PRAGMA index_list("${t.name}")`)) {
        if (String(i.name).startsWith('sqlite_autoindex_')) continue
        const columns = (await ask(`PRAGMA index_info("${i.name}")`)).map((c) => String(c.name))
        indexes.push({ name: String(i.name), unique: i.unique === 1, columns })
      }
      indexes.sort((a, b) => a.name.localeCompare(b.name))
      expect({ table: t.name, ...declared(t) }).toEqual({ table: t.name, columns, foreignKeys, indexes })
    }
  } finally {
    db.close()
  }
})
