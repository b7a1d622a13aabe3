// A webhook's deliveries of the last 30 days, each with its attempts and a Resend: the same table for a Business's
// webhooks (settings) and an OAuth app's webhook (profile → Apps). On a phone each delivery stacks into a card.
import { PostForm, When, esc } from './ui'
import { RecordsTable, type Column } from './list'

export interface DeliveryRow {
  id: number | string
  created_at: string
  event: string
  status: string
  reason: string | null
  next_attempt_at: string | null
  attempts: {
    at: string
    duration_ms: number
    status_code: number | null
    error: string | null
    response: string | null
  }[]
  /** The Business it was about, for an app's webhook that hears several. */
  business?: { name: string }
}

const REASON_WORDS: Record<string, string> = { app_not_connected: 'the app left this Business' }

export function DeliveriesTable(p: {
  rows: DeliveryRow[]
  csrf: string
  resendAction: (id: DeliveryRow['id']) => string
  resendHidden?: { name: string; value: string }
}): JSX.Element {
  if (p.rows.length === 0) return <p class="muted">Nothing sent yet.</p>
  return <RecordsTable columns={deliveryColumns(p)} rows={p.rows} />
}

function deliveryColumns(p: {
  csrf: string
  resendAction: (id: DeliveryRow['id']) => string
  resendHidden?: { name: string; value: string }
}): Column<DeliveryRow>[] {
  return [
    { head: 'Created', key: true, cell: (d) => <When at={d.created_at} /> },
    {
      head: 'Event',
      cell: (d) => (
        <>
          <code>{esc(d.event)}</code>
          {d.business ? <div class="hint">{esc(d.business.name)}</div> : ''}
        </>
      ),
    },
    {
      head: 'State',
      cell: (d) => (
        <>
          <span class={d.status === 'delivered' ? 'tag ok' : d.status === 'pending' ? 'tag' : 'tag bad'}>
            {esc(d.status.replace('_', ' '))}
          </span>
          {d.reason ? <div class="hint">{esc(REASON_WORDS[d.reason] ?? d.reason)}</div> : ''}
          {d.next_attempt_at ? (
            <div class="hint">
              next attempt <When at={d.next_attempt_at} />
            </div>
          ) : (
            ''
          )}
        </>
      ),
    },
    {
      head: 'Attempts',
      cell: (d) =>
        d.attempts.length === 0 ? (
          <span class="muted">none yet</span>
        ) : (
          <details>
            <summary>
              {d.attempts.length} attempt{d.attempts.length > 1 ? 's' : ''}
            </summary>
            <ol>
              {d.attempts.map((a) => (
                <li>
                  <When at={a.at} /> · {a.duration_ms} ms ·{' '}
                  {a.status_code !== null ? `answered ${a.status_code}` : esc(a.error ?? 'no answer')}
                  {a.response ? <code class="secret">{esc(a.response.slice(0, 200))}</code> : ''}
                </li>
              ))}
            </ol>
          </details>
        ),
    },
    {
      head: 'Resend',
      actions: true,
      headShown: true,
      cell: (d) => (
        <PostForm action={p.resendAction(d.id)} token={p.csrf} class="inline">
          {p.resendHidden ? <input type="hidden" name={p.resendHidden.name} value={esc(p.resendHidden.value)} /> : ''}
          <button type="submit" class="quiet small">
            Resend
          </button>
        </PostForm>
      ),
    },
  ]
}
