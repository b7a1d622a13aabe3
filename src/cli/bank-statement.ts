// `invoicing bank-statement import BUSINESS_ID FILE`: a CAMT.053 or CAMT.054 file imported as through the API
// (extensions §15), acting as the command line (`recorded_by` of its Payments names it).
import { readFileSync, statSync } from 'node:fs'
import type { Deps } from '../deps'
import { importStatement, MAX_STATEMENT_BYTES } from '../modules/banking'
import { resolveBusiness } from '../modules/business'
import { systemActor } from '../platform/actor'
import { InvalidRequest } from '../shared/errors'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'

export const BANK_STATEMENT_USAGE = 'bank-statement import BUSINESS_ID FILE'

export async function bankStatementCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, ref, file] = args.words
  if (sub !== 'import' || !ref || !file) throw new UsageError(`usage: invoicing ${BANK_STATEMENT_USAGE}`)
  allowOnly(args, [])
  const b = await resolveBusiness(deps.db.read, ref)
  let size: number
  try {
    size = statSync(file).size
  } catch {
    throw new InvalidRequest({ file: [`cannot be read: ${file}`] })
  }
  // Judged before reading: a file larger than any statement is never read into memory.
  if (size > MAX_STATEMENT_BYTES) throw new InvalidRequest({ file: ['a CAMT.053 or CAMT.054 file of at most 10 MB'] })
  const xml = readFileSync(file, 'utf8')
  const actor = systemActor(
    { businessId: b.id, businessPublicId: b.publicId, currency: b.currency, plan: b.plan, isTest: b.isTest },
    'command line',
  )
  return print(args, await importStatement(deps, actor, xml))
}
