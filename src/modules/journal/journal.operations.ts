// Operations of the journal (extensions §17): read the chain and verify it. Admin credentials only (the policy
// refuses other Roles before anything is read).
import { json, listPage, type ApplicationOperation, type Operation } from '../../platform/operation'
import { InvalidRequest } from '../../shared/errors'
import { EntryList, JournalQuery, VerdictSchema } from './journal.model'
import { chainHead, listEntries, verifyBusiness } from './journal.service'

/** `from_seq`: a whole number from 1; the entries before it are skipped. */
function fromSeqOf(raw: string | undefined): number {
  if (raw === undefined) return 1
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new InvalidRequest({ from_seq: ['must be a whole number from 1'] })
  return Number(raw)
}

const base = { tag: 'Journal', access: 'admin', mcp: true, idempotent: false, refusals: [] } as const

export const journalOperations: Operation[] = [
  {
    ...base,
    name: 'journal_list',
    summary: "List the journal's entries, oldest first",
    description:
      "The Business's hash chain of issued documents, cancellations, Payments and seller changes, paged oldest first; `from_seq` starts at that entry.",
    http: { method: 'GET', path: '/v1/journal', status: 200 },
    query: JournalQuery,
    output: EntryList,
    async run(actor, { query }, ctx) {
      const from = fromSeqOf(query.from_seq)
      return json(
        await listPage(
          ctx,
          actor,
          query,
          'journal',
          async (after, n) =>
            (await listEntries(ctx.deps.db, actor.businessId, query.cursor === undefined ? from - 1 : after, n)).map(
              (e) => ({ ...e, id: e.seq }),
            ),
          ({ id: _cursor, ...e }) => e,
        ),
      )
    },
  },
  {
    ...base,
    name: 'journal_verify',
    summary: 'Verify the journal',
    description:
      "Recomputes every hash of the Business's chain and compares each record's newest entry with the record as it stands; answers the head and the first bad seq with its reason.",
    http: { method: 'GET', path: '/v1/journal/verify', status: 200 },
    output: VerdictSchema,
    async run(actor, _input, { deps }) {
      const v = await verifyBusiness(deps.db, actor.businessId)
      return json({ ...v, head: { seq: v.head.seq, hash: v.head.hash } })
    },
  },
]

/** The application's settings page shows the head for an auditor to note (Owners and Admins). */
export const journalAppOperations: ApplicationOperation[] = [
  {
    name: 'journal_head',
    description: "The head of the Business's journal: its last seq, hash and time.",
    access: 'admin',
    refusals: [],
    async run(actor, _input, { deps }) {
      return json(await chainHead(deps.db, actor.businessId))
    },
  },
]
