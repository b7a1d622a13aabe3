// `invoicing fx import FILE` and `invoicing fx fetch`: the ECB reference rates on a machine without internet, or now.
import { readFileSync } from 'node:fs'
import type { Deps } from '../deps'
import { fxFetchDeps } from '../jobs'
import { EcbFileError, fetchReferenceRates, importRates } from '../modules/fx'
import { allowOnly, UsageError, type Args } from './args'
import { CliRefusal } from './one-line'
import { print } from './output'

export const FX_USAGE = 'usage: invoicing fx import FILE | invoicing fx fetch'

export async function fxCommand(deps: Deps, args: Args): Promise<void> {
  const [, sub, file] = args.words
  allowOnly(args, [])
  if (sub === 'import') {
    if (!file || args.words.length > 3) throw new UsageError(FX_USAGE)
    let xml: string
    try {
      xml = readFileSync(file, 'utf8')
    } catch {
      throw new CliRefusal(`cannot read the file ${file}`)
    }
    try {
      return print(args, { imported: await importRates(deps.db, xml) })
    } catch (e) {
      // A malformed file changes nothing (every day is stored in one transaction, after all of them read right).
      if (e instanceof EcbFileError) throw new CliRefusal(`${file} was not imported, nothing changed: ${e.message}`)
      throw e
    }
  }
  if (sub === 'fetch') {
    if (args.words.length > 2) throw new UsageError(FX_USAGE)
    const out = await fetchReferenceRates(fxFetchDeps(deps))
    if (!out.ok) throw new CliRefusal(`rates not fetched from ${out.url}, the rates held are kept: ${out.error}`)
    return print(args, { fetched: out.result, url: out.url })
  }
  throw new UsageError(FX_USAGE)
}
