// A webhook's deliveries of the last 30 days, each with its attempts and a Resend: the same table for a Business's
// webhooks (settings) and an OAuth app's webhook (profile → Apps). On a phone each delivery stacks into a card.
import { PostForm, When, esc } from './ui'

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
  return (
    <div class="table-wrap">
      <table class="stacked">
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">
              <span class="muted">Resend</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {p.rows.map((d) => (
            <tr>
              <td class="key">
                <When at={d.created_at} />
              </td>
              <td data-label="Event">
                <code>{esc(d.event)}</code>
                {d.business ? <div class="hint">{esc(d.business.name)}</div> : ''}
              </td>
              <td data-label="State">
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
              </td>
              <td data-label="Attempts">
                {d.attempts.length === 0 ? (
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
                )}
              </td>
              <td>
                <PostForm action={p.resendAction(d.id)} token={p.csrf} class="inline">
                  {p.resendHidden ? (
                    <input type="hidden" name={p.resendHidden.name} value={esc(p.resendHidden.value)} />
                  ) : (
                    ''
                  )}
                  <button type="submit" class="quiet small">
                    Resend
                  </button>
                </PostForm>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
