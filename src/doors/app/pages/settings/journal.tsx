// Settings → Journal (extensions §17): the head of the Business's hash chain for an auditor to note, its newest
// entries, and a check of the whole chain against the records on request.
import type { InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Notice, When, esc } from '../../ui'
import { Section } from '../../settings-parts'
import { RecordsTable } from '../../list'
import { SettingsLayout } from './index'

/** How many of the newest entries the page lists. */
const SHOWN = 10

const REASONS: Record<string, string> = {
  entry_changed: 'an entry was changed (or one was inserted)',
  entry_removed: 'an entry was removed',
  chain_broken: 'an entry before it was changed or removed',
  record_changed: 'the record it names was changed behind the service’s back',
}

/** An entry of journal_list, as far as the page shows it. */
interface Entry {
  seq: number
  at: string
  kind: string
  record: { type: string; id: number; number: string | null }
  hash: string
}

async function JournalPage({ c }: { c: InBusiness }): Promise<string> {
  const head = await c.operation<{ seq: number; hash: string; at: string | null }>('journal_head')
  const from = Math.max(1, head.seq - SHOWN + 1)
  const newest =
    head.seq === 0
      ? []
      : (
          await c.operation<{ data: Entry[] }>('journal_list', {
            query: { from_seq: String(from), limit: String(SHOWN) },
          })
        ).data.reverse()
  // A check reads the whole chain: run when asked, not with every visit.
  const verdict = c.url.searchParams.get('verify') === '1' ? await c.operation('journal_verify') : null
  return (
    <SettingsLayout c={c} title="Journal" path="/journal">
      <h1>Journal</h1>
      <p class="lead">
        Every issued document, cancellation, Payment and change of the seller’s details, chained by SHA-256: a change
        made behind the service’s back is found. Note the head below somewhere safe; an auditor checks the chain up to
        it.
      </p>
      {verdict === null ? (
        ''
      ) : verdict.ok ? (
        <Notice text={`The chain holds: ${verdict.entries} entries checked against the records as they stand.`} />
      ) : (
        <Notice
          kind="bad"
          text={`The chain is broken at entry ${verdict.first_bad_seq}: ${REASONS[verdict.reason] ?? verdict.reason}.`}
        />
      )}
      <Section id="j-head" title="Head">
        {head.seq === 0 ? (
          <p>Nothing has been issued yet: the chain is empty.</p>
        ) : (
          <dl class="facts">
            <dt>Entry</dt>
            <dd>{esc(head.seq)}</dd>
            <dt>Hash</dt>
            <dd>
              <code class="secret">{esc(head.hash)}</code>
            </dd>
            <dt>Date</dt>
            <dd>
              <When at={head.at} />
            </dd>
          </dl>
        )}
        <p>
          <a class="button" href={esc(`${c.base}/settings/journal?verify=1`)}>
            Check the chain now
          </a>
        </p>
      </Section>
      {newest.length === 0 ? (
        ''
      ) : (
        <Section id="j-newest" title="Newest entries">
          <RecordsTable
            rows={newest}
            columns={[
              { head: 'Entry', key: true, cell: (e) => esc(e.seq) },
              { head: 'What', cell: (e) => esc(e.kind) },
              { head: 'Record', cell: (e) => esc(e.record.number ?? `${e.record.type} ${e.record.id}`) },
              { head: 'When', cell: (e) => <When at={e.at} /> },
              { head: 'Hash', cell: (e) => <code>{esc(e.hash.slice(0, 16))}…</code> },
            ]}
          />
        </Section>
      )}
      <p class="muted">
        Export the whole chain with <code>invoicing journal export {esc(c.business.publicId)} FILE</code>;
        docs/journal.md says how to check it with a few lines of code.
      </p>
    </SettingsLayout>
  )
}

export function journalSettings(kit: AppKit): void {
  kit.page('/settings/journal', 'settings', (c: InBusiness) => <JournalPage c={c} />)
}
