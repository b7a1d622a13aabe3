// Settings → API keys: create with a name and Role (the key is shown once), revoke.
import { isPaidPlan } from '../../../../platform/policy'
import { listApiKeys } from '../../../../modules/business'
import { EMPTY_FORM, type FormState, type InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, Refused, Select, ShownOnce, When, esc } from '../../ui'
import { ButtonForm, FieldsForm, PlanLimit, Section } from '../../settings-parts'
import { RecordsTable } from '../../list'
import { SettingsLayout, settingsPage } from './index'

const ROLE_OPTIONS = [
  ['admin', 'Admin: everything, webhooks and the request log included'],
  ['member', 'Member: reads and changes documents, Clients, Products, Payments'],
  ['viewer', 'Viewer: only reads'],
] as const

async function KeysPage({
  c,
  form,
  created,
}: {
  c: InBusiness
  form: FormState
  created?: { name: string; key: string }
}): Promise<string> {
  const keys = await listApiKeys(c.deps.db, c.business.id)
  return (
    <SettingsLayout c={c} title="API keys" path="/keys">
      <h1>API keys</h1>
      <p class="lead">
        Programs use a key to act for this Business through the API (send it as "Authorization: Bearer …").
      </p>
      <Notice text={c.notice} />
      {created ? <ShownOnce label={`Your new key "${created.name}".`} secret={created.key} /> : ''}
      <PlanLimit
        limited={!isPaidPlan(c.business.plan)}
        text="The API needs a paid plan: keys of this Business are refused until it is on one."
      />
      <Section id="new-key" title="Create a key">
        <Refused state={form} shown={['name', 'role']} />
        <FieldsForm action={`${c.base}/settings/keys`} token={c.csrf} submit="Create key">
          <Field
            name="name"
            label="Name"
            state={form}
            required
            maxlength={100}
            hint="Say what uses it, e.g. “accounting export”."
          />
          <Select name="role" label="Role" state={form} value="member" options={ROLE_OPTIONS} />
        </FieldsForm>
      </Section>
      <h2>Keys</h2>
      {keys.length === 0 ? (
        <p class="muted">No keys yet.</p>
      ) : (
        <RecordsTable
          rows={keys}
          columns={[
            { head: 'Name', key: true, cell: (k) => esc(k.name) },
            { head: 'Role', cell: (k) => esc(k.role) },
            { head: 'Starts with', cell: (k) => <code>{esc(k.prefix)}…</code> },
            { head: 'Created', cell: (k) => <When at={k.created_at} /> },
            {
              head: 'State',
              cell: (k) =>
                k.revoked_at ? (
                  <span class="tag bad">revoked</span>
                ) : (
                  <ButtonForm
                    action={`${c.base}/settings/keys/${k.id}/revoke`}
                    token={c.csrf}
                    kind="danger"
                    label="Revoke"
                    ariaLabel={`Revoke ${k.name}`}
                  />
                ),
            },
          ]}
        />
      )}
    </SettingsLayout>
  )
}

export function keysSettings(kit: AppKit): void {
  const page = settingsPage(kit, '/settings/keys', (c, form) => <KeysPage c={c} form={form} />)
  page.action('', async (c, data) => {
    const created = await kit.operation<{ name: string; key: string }>(c, 'api_keys_create', {
      body: { name: data.get('name')?.trim() ?? '', role: data.get('role') ?? '' },
    })
    // Shown in this answer only: the key is stored as a hash and never shown again.
    return <KeysPage c={c} form={EMPTY_FORM} created={created} />
  })
  page.change('/:id/revoke', 'api_keys_revoke', 'key_revoked', (_, c) => ({ path: { id: c.params.id } }))
}
