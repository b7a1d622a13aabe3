// The journal's answers (extensions §17): an entry, a page of entries, and verify's verdict.
import { Type as t } from '@sinclair/typebox'
import { Bool, Int, ListQuery, Nullable, Paged } from '../../shared/schemas'

const Hash = t.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, 64 lower-case hex digits' })

export const EntrySchema = t.Object(
  {
    seq: Int({ description: 'from 1 per Business, without gaps' }),
    at: t.String({ description: 'UTC with microseconds, e.g. 2026-01-31T10:00:00.123000Z' }),
    kind: t.String({
      description:
        'document.issued, document.cancelled, payment.recorded, payment.amended, payment.reversed or business.changed',
    }),
    record: t.Object({
      type: t.String({ description: 'document, payment or business' }),
      id: Int(),
      number: Nullable(t.String({ description: "the document's number or the Payment's Receipt number" })),
    }),
    data: t.Record(t.String(), t.Unknown(), { description: 'what the record says (docs/journal.md)' }),
    prev_hash: Hash,
    hash: Hash,
  },
  { title: 'JournalEntry' },
)

export const EntryList = Paged(EntrySchema, 'JournalEntryList')

export const JournalQuery = t.Object({
  ...ListQuery,
  from_seq: t.Optional(t.String({ description: 'the first seq to answer (without a cursor); default 1' })),
})

export const VerdictSchema = t.Object(
  {
    ok: Bool(),
    entries: Int(),
    head: t.Object({ seq: Int({ description: '0 while the chain is empty' }), hash: Hash }),
    first_bad_seq: Nullable(Int()),
    reason: Nullable(
      t.String({ description: 'entry_changed, entry_removed, chain_broken or record_changed; null when ok' }),
    ),
  },
  { title: 'JournalVerdict' },
)
