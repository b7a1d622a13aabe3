// The parts of a webhook's pages, the same for a Business's webhooks (settings) and an OAuth app's webhook (profile →
// Apps): what its services are given, the events it hears as the checkboxes of its form, and its state as a tag.
import type { Deps } from '../../deps'
import { EVENT_TYPES, type WebhookDeps } from '../../modules/webhooks'
import type { FormState } from './context'

/** What the webhook services take from the service's dependencies. */
export function webhookDeps(deps: Deps): WebhookDeps {
  return {
    db: deps.db,
    clock: deps.clock,
    resolve: deps.resolve,
    allowPrivate: deps.config.webhookAllowPrivate,
  }
}

/** One checkbox an event; after a refusal, what was ticked; none ticked means every event. */
export function EventChecks({ form, chosen }: { form: FormState; chosen: string[] }): JSX.Element {
  const picked = form.values ? form.values.getAll('events') : chosen
  return (
    <fieldset class="checks">
      <legend class="legend">Events (none ticked: every event)</legend>
      {EVENT_TYPES.map((e) => (
        <label>
          <input type="checkbox" name="events" value={e} checked={picked.includes(e)} />
          {e}
        </label>
      ))}
    </fieldset>
  )
}

/** On, or paused (and why, when the address answered 410 Gone). */
export function WebhookState({ hook }: { hook: { paused: boolean; paused_reason: string | null } }): JSX.Element {
  if (!hook.paused) return <span class="tag ok">on</span>
  return (
    <span class="tag bad">{hook.paused_reason === 'gone' ? 'paused: the address answered 410 Gone' : 'paused'}</span>
  )
}
