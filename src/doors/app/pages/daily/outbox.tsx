// The outbox of a Test business (issue 32): every email it sent to a Client (Send, reminders, Receipts) is kept here
// instead of leaving the machine. A list, newest first, and each message as it would have gone out: headers, body,
// attachments to download, and the whole message as an .eml file. Any Role reads it; only a Test business has one.
import { idOf } from '../../../../platform/operation'
import type { Page } from '../../../../platform/cursors'
import { NO_MESSAGE, OUTBOX_KEEP, type KeptMessage, type KeptSummary } from '../../../../modules/outbox'
import type { InBusiness } from '../../context'
import { fileResponse, type AppKit } from '../../kit'
import { CardSection, Layout } from '../../layout'
import { When, esc } from '../../ui'
import { Pager } from './words'
import { RecordsTable, type Column } from '../../list'

/** Where a Test business's mail goes, said where the application sends email (Send, Remind, Receipts, reminders). */
export function OutboxNote({ c, what }: { c: InBusiness; what: string }): JSX.Element {
  if (!c.business.isTest) return ''
  return (
    <p class="notice warn outbox-note">
      This is a Test business: {esc(what)} goes to no one; it is kept in its{' '}
      <a href={esc(`${c.base}/outbox`)}>Outbox</a>, exactly as it would have gone out.
    </p>
  )
}

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`
}

const list = (a: string[]): string => a.join(', ')

/** The outbox's columns: each message by its subject (opening it), its recipients, when, its files and its size. */
function messageColumns(c: InBusiness): Column<KeptSummary>[] {
  return [
    {
      head: 'Subject',
      key: true,
      cell: (m) => <a href={esc(`${c.base}/outbox/${m.id}`)}>{esc(m.subject || '(no subject)')}</a>,
    },
    { head: 'To', cell: (m) => esc(list([...m.to, ...m.cc])) },
    { head: 'Sent', nowrap: true, cell: (m) => <When at={m.kept_at} /> },
    { head: 'Attachments', cell: (m) => esc(m.attachments.map((a) => a.filename).join(', ')) },
    { head: 'Size', num: true, cell: (m) => esc(bytes(m.size)) },
  ]
}

function OutboxList({ c, page }: { c: InBusiness; page: Page<KeptSummary> }): JSX.Element {
  return (
    <Layout c={c} title="Outbox" section="outbox">
      <h1>Outbox</h1>
      <p class="lead">
        This is a Test business: the emails it sends to Clients (documents, payment reminders, Receipts) are kept here
        and never leave this server, so they can be tried without a mailbox. Each is the message as it would have gone
        out. The newest {OUTBOX_KEEP} are kept; older ones are dropped as new ones come. Invitations to people are never
        kept here: they are sent.
      </p>
      <div class="card">
        <RecordsTable
          id="outbox"
          columns={messageColumns(c)}
          rows={page.data}
          empty="Nothing yet: send a document, remind of one or email a Receipt, and the email appears here."
          rowAttributes={(m) => ({ 'data-message': String(m.id) })}
        />
        <Pager next={page.next_cursor} url={c.url} />
      </div>
    </Layout>
  )
}

async function OutboxMessage({ c }: { c: InBusiness }): Promise<string> {
  const id = idOf(c.params.id, NO_MESSAGE)
  const m = await c.operation<KeptMessage>('outbox_get', { path: { id } })
  const at = `${c.base}/outbox/${m.id}`
  return (
    <Layout c={c} title={m.headers.subject || 'Message'} section="outbox">
      <p>
        <a href={esc(`${c.base}/outbox`)}>← Outbox</a>
      </p>
      <h1>{esc(m.headers.subject || '(no subject)')}</h1>
      <p class="lead">
        Kept in the outbox of this Test business instead of being sent: this is what would have gone out.
      </p>
      <CardSection id="m-headers" title="Headers">
        <dl class="facts" id="message-headers">
          <dt>From</dt>
          <dd>{esc(m.headers.from)}</dd>
          <dt>To</dt>
          <dd>{esc(m.headers.to)}</dd>
          {m.headers.cc ? (
            <>
              <dt>Cc</dt>
              <dd>{esc(m.headers.cc)}</dd>
            </>
          ) : (
            ''
          )}
          {m.bcc.length ? (
            <>
              <dt>Bcc</dt>
              <dd>
                {esc(list(m.bcc))} <span class="muted">(in the envelope only, never in the headers)</span>
              </dd>
            </>
          ) : (
            ''
          )}
          <dt>Subject</dt>
          <dd>{esc(m.headers.subject)}</dd>
          <dt>Date</dt>
          <dd>
            <When at={m.headers.date} />
          </dd>
          {m.headers.message_id ? (
            <>
              <dt>Message-ID</dt>
              <dd>
                <code>{esc(m.headers.message_id)}</code>
              </dd>
            </>
          ) : (
            ''
          )}
        </dl>
        <p class="actions-row flush">
          <a href={esc(`${at}/raw`)} id="download-eml">
            Download the whole message (.eml, {esc(bytes(m.size))})
          </a>
        </p>
      </CardSection>
      <CardSection id="m-body" title="Text">
        {m.text === null ? (
          <p class="muted">This message has no plain text.</p>
        ) : (
          <pre class="mail-body">{esc(m.text)}</pre>
        )}
        {m.html ? (
          <details>
            <summary>HTML body (its source)</summary>
            <pre class="mail-body">{esc(m.html)}</pre>
          </details>
        ) : (
          ''
        )}
      </CardSection>
      <CardSection id="m-files" title="Attachments">
        {m.attachments.length === 0 ? (
          <p class="muted">None.</p>
        ) : (
          <ul id="attachments">
            {m.attachments.map((a, i) => (
              <li>
                <a href={esc(`${at}/attachments/${i}`)}>{esc(a.filename)}</a>{' '}
                <span class="muted">
                  ({esc(a.content_type)}, {esc(bytes(a.size))})
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardSection>
    </Layout>
  )
}

export function outboxRoutes(kit: AppKit): void {
  kit.page('/outbox', 'read', async (c) => <OutboxList c={c} page={await kit.list<KeptSummary>(c, 'outbox_list')} />)
  kit.page('/outbox/:id', 'read', (c) => <OutboxMessage c={c} />)
  kit.download('/outbox/:id/raw', 'read', async (c, params) =>
    fileResponse(await c.operation('outbox_raw', { path: { id: idOf(params.id, NO_MESSAGE) } })),
  )
  kit.download('/outbox/:id/attachments/:index', 'read', async (c, params) =>
    fileResponse(
      await c.operation('outbox_attachment', { path: { id: idOf(params.id, NO_MESSAGE), index: params.index } }),
    ),
  )
}
