// The events a webhook hears, as the checkboxes of its form: the same for a Business's webhooks (settings) and an OAuth
// app's webhook (profile → Apps).
import { EVENT_TYPES } from '../../modules/webhooks'
import type { FormState } from './context'

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
