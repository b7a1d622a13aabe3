// `invoicing journal verify [BUSINESS_ID]` and `invoicing journal export BUSINESS_ID FILE` (extensions §17).
import { closeSync, openSync, writeSync } from 'node:fs'
import type { Deps } from '../deps'
import { resolveBusiness } from '../modules/business'
import { exportEntries, verifyAll } from '../modules/journal'
import { allowOnly, UsageError, type Args } from './args'
import { CliRefusal } from './one-line'
import { print } from './output'

export const JOURNAL_USAGE = ['journal verify [BUSINESS_ID] [--db FILE]', 'journal export BUSINESS_ID FILE [--db FILE]']

export async function journalCommand(deps: Deps, args: Args): Promise<void> {
  allowOnly(args, [])
  const [, sub, ref, file] = args.words
  if (sub === 'verify') {
    if (args.words.length > 3) throw new UsageError(`usage: invoicing ${JOURNAL_USAGE[0]}`)
    const only = ref === undefined ? undefined : (await resolveBusiness(deps.db.read, ref)).id
    const verdicts = await verifyAll(deps.db, only)
    print(
      args,
      verdicts.map((v) => ({
        business_id: v.public_id,
        ok: v.verdict.ok,
        entries: v.verdict.entries,
        head: { seq: v.verdict.head.seq, hash: v.verdict.head.hash },
        first_bad_seq: v.verdict.first_bad_seq,
        reason: v.verdict.reason,
      })),
    )
    const bad = verdicts.find((v) => !v.verdict.ok)
    if (bad)
      throw new CliRefusal(
        `journal of Business ${bad.public_id} broken at seq ${bad.verdict.first_bad_seq}: ${bad.verdict.reason}`,
      )
    return
  }
  if (sub === 'export') {
    if (ref === undefined || file === undefined || args.words.length > 4)
      throw new UsageError(`usage: invoicing ${JOURNAL_USAGE[1]}`)
    const business = await resolveBusiness(deps.db.read, ref)
    // A new file only (never one overwritten), the owner's alone: it names Clients and amounts.
    let fd: number
    try {
      fd = openSync(file, 'wx', 0o600)
    } catch (e) {
      throw new CliRefusal(
        `cannot create ${file}: ${(e as { code?: string }).code ?? 'error'} (an export never overwrites a file)`,
      )
    }
    let buffer = ''
    let entries = 0
    try {
      entries = await exportEntries(deps.db, business.id, (line) => {
        buffer += `${line}\n`
        if (buffer.length > 1 << 20) {
          writeSync(fd, buffer)
          buffer = ''
        }
      })
      writeSync(fd, buffer)
    } finally {
      closeSync(fd)
    }
    print(args, { business_id: business.publicId, file, entries })
    return
  }
  throw new UsageError(`usage: invoicing ${JOURNAL_USAGE.join(' | invoicing ')}`)
}
