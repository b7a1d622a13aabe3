// Settings → Webhooks: add (address and events; the signing secret shown once), change, pause and resume, roll the
// secret, delete; each webhook's deliveries of the last 30 days with every attempt, and Resend. The same services as
// the API's /v1/webhooks, so rules and refusals (webhook_paused, webhooks_need_a_paid_plan) are the same.
import { getWebhook, listDeliveries, listWebhooks, presentWebhook } from '../../../../modules/webhooks'
import { webhooksSend } from '../../../../platform/policy'
import { EMPTY_FORM, type FormState, type InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, Refused, ShownOnce, When, esc } from '../../ui'
import { ButtonForm, FieldsForm, PlanLimit, Section } from '../../settings-parts'
import { RecordsTable } from '../../list'
import { SettingsLayout, settingsPage } from './index'
import { DeliveriesTable } from '../../deliveries'
import { EventChecks, WebhookState, webhookDeps } from '../../webhook-parts'

async function WebhooksPage({
  c,
  form,
  created,
}: {
  c: InBusiness
  form: FormState
  created?: { url: string; secret: string }
}): Promise<string> {
  const list = (await listWebhooks(webhookDeps(c.deps), c.business.id, 0, 100)).map((r) => presentWebhook(r))
  return (
    <SettingsLayout c={c} title="Webhooks" path="/webhooks">
      <h1>Webhooks</h1>
      <p class="lead">
        Addresses told when documents and Payments change, signed by the Standard Webhooks rules. At most ten.
      </p>
      <Notice text={c.notice} />
      {created ? <ShownOnce label={`Signing secret of ${created.url}.`} secret={created.secret} /> : ''}
      <PlanLimit
        limited={!webhooksSend(c.business)}
        text="Webhooks are sent only on a paid plan; messages wait, failed unsent, until then."
      />
      <Section id="add-h" title="Add a webhook">
        <Refused state={form} shown={['url']} />
        <FieldsForm action={`${c.base}/settings/webhooks`} token={c.csrf} submit="Add webhook">
          <Field
            name="url"
            label="Address"
            type="url"
            state={form}
            required
            maxlength={2000}
            placeholder="https://example.com/hooks/invoicing"
            hint="https:// on port 443, a host name on the public internet."
          />
          <EventChecks form={form} chosen={[]} />
        </FieldsForm>
      </Section>
      <h2>Webhooks</h2>
      {list.length === 0 ? (
        <p class="muted">No webhooks yet.</p>
      ) : (
        <RecordsTable
          rows={list}
          columns={[
            {
              head: 'Address',
              key: true,
              cell: (h) => <a href={esc(`${c.base}/settings/webhooks/${h.id}`)}>{esc(h.url)}</a>,
            },
            { head: 'Events', cell: (h) => esc(h.events.length ? h.events.join(', ') : 'every event') },
            { head: 'State', cell: (h) => <WebhookState hook={h} /> },
          ]}
        />
      )}
    </SettingsLayout>
  )
}

async function WebhookPage({ c, form, secret }: { c: InBusiness; form: FormState; secret?: string }): Promise<string> {
  const id = Number(c.params.id)
  const h = await getWebhook(webhookDeps(c.deps), c.business.id, id)
  const deliveries = await listDeliveries(webhookDeps(c.deps), c.business.id, id, 0, 100)
  const at = `${c.base}/settings/webhooks/${h.id}`
  return (
    <SettingsLayout c={c} title="Webhook" path="/webhooks">
      <p>
        <a href={esc(`${c.base}/settings/webhooks`)}>← All webhooks</a>
      </p>
      <h1>{esc(h.url)}</h1>
      <p class="lead">
        <WebhookState hook={h} /> · added <When at={h.created_at} />
      </p>
      <Notice text={c.notice} />
      {secret ? (
        <ShownOnce label="The new signing secret. The old one keeps signing beside it for 24 hours." secret={secret} />
      ) : (
        ''
      )}
      <Refused state={form} shown={['url']} />
      <Section id="change-h" title="Change">
        <FieldsForm action={at} token={c.csrf} submit="Save">
          <Field name="url" label="Address" type="url" state={form} value={h.url} required maxlength={2000} />
          <EventChecks form={form} chosen={h.events} />
        </FieldsForm>
      </Section>
      <section class="card row" aria-label="Actions">
        <ButtonForm
          action={`${at}/${h.paused ? 'resume' : 'pause'}`}
          token={c.csrf}
          kind="quiet"
          label={h.paused ? 'Turn on' : 'Pause'}
        />
        <ButtonForm action={`${at}/roll`} token={c.csrf} kind="quiet" label="Roll the secret" />
        <ButtonForm action={`${at}/delete`} token={c.csrf} kind="danger" label="Delete webhook" />
      </section>
      <h2>Deliveries of the last 30 days</h2>
      <DeliveriesTable
        rows={deliveries.map((d) => d.view)}
        csrf={c.csrf}
        resendAction={(id) => `${c.base}/settings/webhooks/deliveries/${id}/resend`}
        resendHidden={{ name: 'webhook', value: String(h.id) }}
      />
    </SettingsLayout>
  )
}

export function webhooksSettings(kit: AppKit): void {
  const list = settingsPage(kit, '/settings/webhooks', (c, form) => <WebhooksPage c={c} form={form} />)
  const one = settingsPage(kit, '/settings/webhooks/:id', (c, form) => <WebhookPage c={c} form={form} />)
  list.action('', async (c, data) => {
    const url = data.get('url')?.trim() ?? ''
    const w = await kit.operation(c, 'webhooks_create', { body: { url, events: data.getAll('events') } })
    return <WebhooksPage c={c} form={EMPTY_FORM} created={{ url: w.url, secret: w.secret! }} />
  })
  one.action('', async (c, data) => {
    const w = await kit.operation(c, 'webhooks_update', {
      path: { id: c.params.id },
      body: { url: data.get('url')?.trim() ?? '', events: data.getAll('events') },
    })
    return kit.done(c, `/settings/webhooks/${w.id}`, 'saved')
  })
  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    one.action(`/${verb}`, async (c) => {
      const w = await kit.operation(c, 'webhooks_update', { path: { id: c.params.id }, body: { paused } })
      return kit.done(c, `/settings/webhooks/${w.id}`, paused ? 'webhook_paused' : 'webhook_resumed')
    })
  }
  one.action('/roll', async (c) => {
    const w = await kit.operation(c, 'webhooks_roll_secret', { path: { id: c.params.id } })
    return <WebhookPage c={c} form={EMPTY_FORM} secret={w.secret!} />
  })
  list.change('/:id/delete', 'webhooks_delete', 'webhook_deleted', (_, c) => ({ path: { id: c.params.id } }))
  kit.action(
    '/settings/webhooks/deliveries/:delivery/resend',
    'manage',
    async (c) => {
      const d = await kit.operation(c, 'webhook_deliveries_resend', { path: { id: c.params.delivery } })
      return kit.done(c, `/settings/webhooks/${d.webhook_id}`, 'delivery_resent')
    },
    // A refused resend (webhook_paused, webhooks_need_a_paid_plan) is shown on its webhook's page.
    (c, form) => (
      <WebhookPage c={{ ...c, params: { id: form.values?.get('webhook') ?? '' } } as InBusiness} form={form} />
    ),
  )
}
