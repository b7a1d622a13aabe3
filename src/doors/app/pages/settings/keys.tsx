// Settings → API keys: create with a name and Role (the key is shown once), revoke.
import { isPaidPlan } from '../../../../platform/policy'
import { listApiKeys, type ApiKeyView } from '../../../../modules/business'
import { EMPTY_FORM, type FormState, type InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, PostForm, Refused, Select, ShownOnce, When, esc } from '../../ui'
import { SettingsLayout } from './index'

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
      {!isPaidPlan(c.business.plan) ? (
        <p class="notice warn">The API needs a paid plan: keys of this Business are refused until it is on one.</p>
      ) : (
        ''
      )}
      <section class="card" aria-labelledby="new-key">
        <h2 id="new-key" class="flush">
          Create a key
        </h2>
        <Refused state={form} shown={['name', 'role']} />
        <PostForm action={`${c.base}/settings/keys`} token={c.csrf}>
          <Field
            name="name"
            label="Name"
            state={form}
            required
            maxlength={100}
            hint="Say what uses it, e.g. “accounting export”."
          />
          <Select name="role" label="Role" state={form} value="member" options={ROLE_OPTIONS} />
          <div>
            <button type="submit">Create key</button>
          </div>
        </PostForm>
      </section>
      <h2>Keys</h2>
      {keys.length === 0 ? (
        <p class="muted">No keys yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="stacked">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Starts with</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k: ApiKeyView) => (
                <tr>
                  <td class="key">{esc(k.name)}</td>
                  <td data-label="Role">{esc(k.role)}</td>
                  <td data-label="Starts with">
                    <code>{esc(k.prefix)}…</code>
                  </td>
                  <td data-label="Created">
                    <When at={k.created_at} />
                  </td>
                  <td data-label="State">
                    {k.revoked_at ? (
                      <span class="tag bad">revoked</span>
                    ) : (
                      <PostForm action={`${c.base}/settings/keys/${k.id}/revoke`} token={c.csrf} class="inline">
                        <button type="submit" class="danger" aria-label={esc(`Revoke ${k.name}`)}>
                          Revoke
                        </button>
                      </PostForm>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SettingsLayout>
  )
}

export function keysSettings(kit: AppKit): void {
  const rerender = (c: InBusiness, form: FormState) => <KeysPage c={c} form={form} />
  kit.page('/settings/keys', 'settings', rerender)
  kit.action(
    '/settings/keys',
    'manage',
    async (c, data) => {
      const created = await kit.operation<{ name: string; key: string }>(c, 'api_keys_create', {
        body: { name: data.get('name')?.trim() ?? '', role: data.get('role') ?? '' },
      })
      // Shown in this answer only: the key is stored as a hash and never shown again.
      return <KeysPage c={c} form={EMPTY_FORM} created={created} />
    },
    rerender,
  )
  kit.action(
    '/settings/keys/:id/revoke',
    'manage',
    async (c) => {
      await kit.operation(c, 'api_keys_revoke', { path: { id: c.params.id } })
      return kit.done(c, '/settings/keys', 'key_revoked')
    },
    rerender,
  )
}
