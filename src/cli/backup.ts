// `invoicing backup OUT_FILE`: a consistent, checked copy of the live database; restoring is copying it back while no
// process runs. The key file (or INVOICING_SECRET_KEY) is not in it and must be kept too.
import type { Deps } from '../deps'
import { backupFile } from '../db/backup'
import { keyFileOf } from '../db/secrets'
import { allowOnly, UsageError, type Args } from './args'
import { print } from './output'
import { withFileSnapshot } from '../db/snapshot'
import { headsOf } from '../modules/journal'

const USAGE = 'usage: invoicing backup OUT_FILE [--db FILE]'

export async function backupCommand(deps: Deps, args: Args): Promise<void> {
  allowOnly(args, [])
  const out = args.words[1]
  if (!out || args.words.length > 2) throw new UsageError(USAGE)
  if (!deps.db.url.startsWith('file:')) {
    throw new UsageError('backup copies a local database file; a libSQL server is backed up by its own tools')
  }
  const file = deps.db.url.slice('file:'.length)
  const result = backupFile(file, out)
  // The head of each journal as the copy holds it (§17): noted with the backup, a restored copy is checked against it.
  const heads = await withFileSnapshot(result.file, (r) => headsOf(r))
  // The copy's secrets are sealed under a key that is not in it: say which one must be kept with it.
  print(args, {
    ...result,
    secret_key: deps.config.secretKey ? 'INVOICING_SECRET_KEY' : keyFileOf(file),
    journal_heads: heads.map((h) => ({ business_id: h.public_id, seq: h.seq, hash: h.hash, at: h.at })),
  })
}
