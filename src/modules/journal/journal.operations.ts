// Operations of the journal (extensions §17): read the chain and verify it. Admin credentials only (the policy
// refuses other Roles before anything is read).
import {
  json,
  listOperation,
  type ApplicationOperation,
  type Operation,
  type OperationInput,
} from '../../platform/operation'
import { InvalidRequest } from '../../shared/errors'
import { EntryList, JournalQuery, VerdictSchema } from './journal.model'
import { chainHead, listEntries, verifyBusiness } from './journal.service'

/** `from_seq`: a whole number from 1; the entries before it are skipped. */
function fromSeqOf(raw: string | undefined): number {
  if (raw === undefined) return 1
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw new InvalidRequest({ from_seq: ['must be a whole number from 1'] })
  return Number(raw)
}

/** The seq the first page starts after (`from_seq` less one); undefined on a page a cursor names. */
function firstPageStartOf(query: OperationInput['query']): number | undefined {
  const from = fromSeqOf(query.from_seq)
  return query.cursor === undefined ? from - 1 : undefined
}

const base = { tag: 'Journal', access: 'admin', mcp: true } as const

export const journalOperations: Operation[] = [
  listOperation({
    ...base,
    name: 'journal_list',
    summary: "List the journal's entries, oldest first",
    description:
      "The Business's hash chain of issued documents, cancellations, Payments and seller changes, paged oldest first; `from_seq` starts at that entry.",
    http: { method: 'GET', path: '/v1/journal', status: 200 },
    query: JournalQuery,
    output: EntryList,
    list: 'journal',
    filter: firstPageStartOf,
    // Cursors page by seq: the first page starts before `from_seq`, the next ones after the cursor's last entry.
    rows: async ({ deps }, actor, after, n, start) =>
      (await listEntries(deps.db, actor.businessId, start ?? after, n)).map((e) => ({ ...e, id: e.seq })),
    present: ({ id: _cursor, ...e }) => e,
  }),
  {
    ...base,
    idempotent: false,
    refusals: [],
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
