// `invoicing import clients|products BUSINESS_ID FILE`: the API's import (extensions §19) from a CSV file on disk,
// every row created in one transaction or none, with the same judges, limits and faults (rows.N.field).
import { readFileSync, statSync } from 'node:fs'
import type { Deps } from '../deps'
import { resolveBusiness } from '../modules/business'
import { importClients, importProducts, MAX_IMPORT_BYTES, MAX_IMPORT_WORDS } from '../modules/imports'
import { InvalidRequest } from '../shared/errors'
import { allowOnly, UsageError, type Args } from './args'
import { CliRefusal } from './one-line'
import { print } from './output'

export const IMPORT_USAGE = 'import clients|products BUSINESS_ID FILE.csv'

export async function importCommand(deps: Deps, args: Args): Promise<void> {
  const [, what, ref, file] = args.words
  allowOnly(args, [])
  if ((what !== 'clients' && what !== 'products') || !ref || !file || args.words.length > 4)
    throw new UsageError(`usage: invoicing ${IMPORT_USAGE}`)
  const b = await resolveBusiness(deps.db.read, ref)
  let size: number
  try {
    size = statSync(file).size
  } catch {
    throw new CliRefusal(`cannot read ${file}`)
  }
  // Judged before the file is read, as the API judges a body by its length.
  if (size > MAX_IMPORT_BYTES) throw new CliRefusal(`${file} is larger than ${MAX_IMPORT_WORDS}`)
  const text = readFileSync(file, 'utf8')
  try {
    print(
      args,
      what === 'clients'
        ? await importClients(deps, { id: b.id, currency: b.currency }, text)
        : await importProducts(deps, b.id, text),
    )
  } catch (e) {
    if (!(e instanceof InvalidRequest)) throw e
    const lines = faultLines(e.errors)
    throw new CliRefusal(
      [
        `the import was refused and nothing was created (${lines.length} fault${lines.length === 1 ? '' : 's'}):`,
        ...lines,
      ].join('\n'),
    )
  }
}

/**
 * A refused import's faults, one a line: the row and field to fix in the file and what is wrong, then the key the API
 * answers (`rows.N.field`). A file of 10,000 rows may have thousands: on one line a person could not read them.
 */
function faultLines(errors: Record<string, string[]>): string[] {
  return Object.entries(errors).flatMap(([key, messages]) => {
    const row = /^rows\.(\d+)\.(.+)$/.exec(key)
    const where = row ? `row ${row[1]}, ${row[2]}` : key.startsWith('header.') ? `header, ${key.slice(7)}` : key
    return messages.map((m) => `  ${where}: ${m} (${key})`)
  })
}
