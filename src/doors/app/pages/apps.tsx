// Profile → Apps (extensions §9, §10): the OAuth apps the signed-in person owns. Register one (name, redirect URIs one
// per line, judged as dynamic registration judges them; an optional webhook under the webhook address rules), see its
// client secret once and roll it, change its name and redirect URIs, set and change its webhook, pause and turn it
// on, see its deliveries of the last 30 days and resend one, delete the app. Every change is a CSRF-checked form.
import {
  appsOfOwner,
  deleteOwnedApp,
  deleteOwnedAppWebhook,
  ownedApp,
  ownedAppDeliveries,
  pauseOwnedAppWebhook,
  redirectUriLines,
  registerOwnedApp,
  resendOwnedAppDelivery,
  rollClientSecret,
  setOwnedAppWebhook,
  updateOwnedApp,
  type AppWebhookDeps,
} from '../../../modules/oauth'
import { EventChecks, WebhookState, webhookDeps } from '../webhook-parts'
import { EMPTY_FORM, type FormState, type Signed } from '../context'
import { redirect } from '../http'
import type { AppKit } from '../kit'
import { Layout } from '../layout'
import { DeliveriesTable } from '../deliveries'
import { type Column, RecordsTable } from '../list'
import { Field, Notice, PostForm, Refused, ShownOnce, When, esc } from '../ui'

const APPS = '/app/profile/apps'

function hookDeps(c: Signed): AppWebhookDeps {
  return webhookDeps(c.deps)
}

/** The app's client_id from the path (/app/profile/apps/:client/...). */
function clientOf(c: Signed): string {
  try {
    return decodeURIComponent(c.url.pathname.slice(APPS.length + 1).split('/')[0] ?? '')
  } catch {
    // A malformed escape names no app: the page answers 404 like any unknown one.
    return ''
  }
}

const appPath = (clientId: string) => `${APPS}/${encodeURIComponent(clientId)}`

function ProfileTabs({ at }: { at: 'profile' | 'apps' }): JSX.Element {
  return (
    <nav class="tabs" aria-label="Profile">
      <a href="/app/profile" aria-current={at === 'profile' ? 'page' : undefined}>
        Name and password
      </a>
      <a href={APPS} aria-current={at === 'apps' ? 'page' : undefined}>
        Apps
      </a>
    </nav>
  )
}

export { ProfileTabs }

/** Redirect URIs one per line; each line's fault is named by its line number. */
function RedirectUris({ form, value }: { form: FormState; value: string[] }): JSX.Element {
  const lineFaults = Object.entries(form.errors)
    .filter(([k]) => k.startsWith('redirect_uris.'))
    .map(([k, v]) => `line ${Number(k.slice('redirect_uris.'.length)) + 1}: ${v.join('; ')}`)
  const errors = [...(form.errors.redirect_uris ?? []), ...lineFaults]
  const typed = form.values?.get('redirect_uris')
  return (
    <div class={errors.length ? 'field bad' : 'field'}>
      <label for="f-redirect_uris">Redirect URIs, one per line</label>
      <textarea
        id="f-redirect_uris"
        name="redirect_uris"
        rows="3"
        required
        aria-invalid={errors.length ? 'true' : undefined}
        aria-describedby="f-redirect_uris-hint"
        spellcheck="false"
      >
        {esc(typed ?? value.join('\n'))}
      </textarea>
      <span class="hint" id="f-redirect_uris-hint">
        https://, or http:// on 127.0.0.1 or [::1] (its port may then vary). Matched exactly. At most ten.
      </span>
      {errors.length ? <p class="err">{esc(errors.join('; '))}</p> : ''}
    </div>
  )
}

interface Shown {
  clientId: string
  clientSecret: string | null
  webhookSecret: string | null
}

type OwnedAppRow = Awaited<ReturnType<typeof appsOfOwner>>[number]

/** A person's apps, one row each (a card on a phone). */
const APP_COLUMNS: Column<OwnedAppRow>[] = [
  {
    head: 'App',
    key: true,
    cell: (a) => (
      <>
        <a href={esc(appPath(a.client_id))}>{esc(a.name)}</a>
        {a.public ? <div class="hint">public (PKCE only)</div> : ''}
      </>
    ),
  },
  { head: 'client_id', cell: (a) => <code class="id">{esc(a.client_id)}</code> },
  { head: 'Connections', num: true, cell: (a) => <>{a.connections}</> },
  {
    head: 'Webhook',
    cell: (a) => (a.webhook ? <WebhookState hook={a.webhook} /> : <span class="muted">none</span>),
  },
]

async function AppsPage({ c, form, shown }: { c: Signed; form: FormState; shown?: Shown }): Promise<string> {
  const apps = await appsOfOwner(c.deps.db, c.person.id)
  return (
    <Layout c={c} title="Apps" section="profile">
      <h1>Your apps</h1>
      <ProfileTabs at="apps" />
      <p class="lead">
        OAuth apps you own. People connect them to one of their Businesses; each connection acts with the Role its
        person chose.
      </p>
      <Notice text={c.notice} />
      {shown ? (
        <div>
          <p class="notice ok" role="status">
            The app is registered. Its client_id is <code>{esc(shown.clientId)}</code>.
          </p>
          {shown.clientSecret ? <ShownOnce label="The app's client secret." secret={shown.clientSecret} /> : ''}
          {shown.webhookSecret ? (
            <ShownOnce label="The signing secret of the app's webhook." secret={shown.webhookSecret} />
          ) : (
            ''
          )}
          <p>
            <a href={esc(appPath(shown.clientId))}>Open the app</a>
          </p>
        </div>
      ) : (
        ''
      )}
      {apps.length === 0 ? (
        <p class="muted">You have registered no app yet.</p>
      ) : (
        <RecordsTable columns={APP_COLUMNS} rows={apps} />
      )}
      <section class="card" aria-labelledby="register-h">
        <h2 id="register-h" class="flush">
          Register an app
        </h2>
        <Refused
          state={form}
          shown={[
            'name',
            'redirect_uris',
            'webhook_url',
            ...Object.keys(form.errors).filter((k) => k.startsWith('redirect_uris.')),
          ]}
        />
        <PostForm action={APPS} token={c.csrf}>
          <Field
            name="name"
            label="Name"
            state={form}
            required
            maxlength={100}
            hint="Shown to people on the consent page."
          />
          <RedirectUris form={form} value={[]} />
          <label class="check">
            <input type="checkbox" name="public" value="1" checked={form.values?.get('public') === '1'} />
            Public app: no client secret (a native or browser app that cannot keep one proves itself with PKCE alone)
          </label>
          <Field
            name="webhook_url"
            label="Webhook address (optional)"
            type="url"
            state={form}
            maxlength={2000}
            placeholder="https://example.com/hooks/invoicing"
            hint="Hears every Business the app is connected to. https:// on port 443, a host name on the public internet."
          />
          <div>
            <button type="submit">Register app</button>
          </div>
        </PostForm>
      </section>
    </Layout>
  )
}

async function AppPage({
  c,
  form,
  which,
  secret,
}: {
  c: Signed
  form: FormState
  which?: 'app' | 'webhook' | 'deliveries'
  secret?: { label: string; value: string }
}): Promise<string> {
  const clientId = clientOf(c)
  const app = await ownedApp(c.deps.db, c.person.id, clientId)
  const deliveries = await ownedAppDeliveries(c.deps.db, c.person.id, clientId, c.deps.clock.now())
  const at = appPath(app.client_id)
  const appForm = which === 'app' ? form : EMPTY_FORM
  const hookForm = which === 'webhook' ? form : EMPTY_FORM
  return (
    <Layout c={c} title={app.name} section="profile">
      <p>
        <a href={APPS}>← Your apps</a>
      </p>
      <h1>{esc(app.name)}</h1>
      <dl class="facts app-facts">
        <dt>client_id</dt>
        <dd>
          <code class="id">{esc(app.client_id)}</code>
        </dd>
        <dt>Kind</dt>
        <dd>
          {app.public ? 'public: no client secret, PKCE alone' : 'confidential: authenticates with its client secret'}
        </dd>
        <dt>Registered</dt>
        <dd>
          <When at={app.created_at} />
        </dd>
        <dt>Connections</dt>
        <dd>{app.connections} acting now</dd>
      </dl>
      <Notice text={c.notice} />
      {secret ? <ShownOnce label={secret.label} secret={secret.value} /> : ''}
      {which === 'deliveries' ? <Refused state={form} /> : ''}

      <section class="card" aria-labelledby="app-h">
        <h2 id="app-h" class="flush">
          Name and redirect URIs
        </h2>
        <Refused
          state={appForm}
          shown={[
            'name',
            'redirect_uris',
            ...Object.keys(appForm.errors).filter((k) => k.startsWith('redirect_uris.')),
          ]}
        />
        <PostForm action={at} token={c.csrf}>
          <Field name="name" label="Name" state={appForm} value={app.name} required maxlength={100} />
          <RedirectUris form={appForm} value={app.redirect_uris} />
          <div>
            <button type="submit">Save</button>
          </div>
        </PostForm>
      </section>

      {app.public ? (
        ''
      ) : (
        <section class="card" aria-labelledby="secret-h">
          <h2 id="secret-h" class="flush">
            Client secret
          </h2>
          <p class="hint">
            Rolling it shows a new secret once; the old one stops working at once. Connections made already go on.
          </p>
          {which === 'app' && form.errors.client_secret ? <Refused state={form} /> : ''}
          <PostForm action={`${at}/roll`} token={c.csrf} class="inline">
            <button type="submit" class="quiet">
              Roll the client secret
            </button>
          </PostForm>
        </section>
      )}

      <section class="card" aria-labelledby="hook-h">
        <h2 id="hook-h" class="flush">
          Webhook {app.webhook ? <WebhookState hook={app.webhook} /> : ''}
        </h2>
        <p class="hint">
          One per app. It hears every Business the app is connected to; each message names its Business in business_id.
        </p>
        <Refused state={hookForm} shown={['url']} />
        <PostForm action={`${at}/webhook`} token={c.csrf}>
          <Field
            name="url"
            label="Address"
            type="url"
            state={hookForm}
            value={app.webhook?.url ?? ''}
            required
            maxlength={2000}
            placeholder="https://example.com/hooks/invoicing"
            hint="https:// on port 443, a host name on the public internet."
          />
          <EventChecks form={hookForm} chosen={app.webhook?.events ?? []} />
          <div>
            <button type="submit">{app.webhook ? 'Save webhook' : 'Set webhook'}</button>
          </div>
        </PostForm>
        {app.webhook ? (
          <div class="row actions-row">
            <PostForm action={`${at}/webhook/${app.webhook.paused ? 'resume' : 'pause'}`} token={c.csrf} class="inline">
              <button type="submit" class="quiet">
                {app.webhook.paused ? 'Turn on' : 'Pause'}
              </button>
            </PostForm>
            <PostForm action={`${at}/webhook/delete`} token={c.csrf} class="inline">
              <button type="submit" class="danger">
                Remove webhook
              </button>
            </PostForm>
          </div>
        ) : (
          ''
        )}
      </section>

      {app.webhook ? (
        <section aria-labelledby="deliveries-h">
          <h2 id="deliveries-h">Deliveries of the last 30 days</h2>
          <DeliveriesTable rows={deliveries} csrf={c.csrf} resendAction={(id) => `${at}/deliveries/${id}/resend`} />
        </section>
      ) : (
        ''
      )}

      <section class="card danger-zone" aria-labelledby="delete-h">
        <h2 id="delete-h" class="flush">
          Delete the app
        </h2>
        <p class="hint">
          Every connection of the app ends at once (its tokens stop working), and its webhook and deliveries are
          deleted.
        </p>
        <PostForm action={`${at}/delete`} token={c.csrf} class="inline">
          <button type="submit" class="danger">
            Delete {esc(app.name)}
          </button>
        </PostForm>
      </section>
    </Layout>
  )
}

export function appsRoutes(kit: AppKit): void {
  const list = (c: Signed, form: FormState) => <AppsPage c={c} form={form} />
  const one = (which: 'app' | 'webhook' | 'deliveries') => (c: Signed, form: FormState) => (
    <AppPage c={c} form={form} which={which} />
  )
  const done = (c: Signed, notice: string) => redirect(`${appPath(clientOf(c))}?done=${notice}`)

  kit.personPage(APPS, list)
  kit.personAction(
    APPS,
    async (c, data) => {
      const made = await registerOwnedApp(hookDeps(c), c.person.id, {
        name: data.get('name') ?? '',
        redirectUris: redirectUriLines(data.get('redirect_uris') ?? ''),
        public: data.get('public') === '1',
        webhookUrl: data.get('webhook_url') ?? '',
      })
      return (
        <AppsPage
          c={c}
          form={EMPTY_FORM}
          shown={{ clientId: made.client_id, clientSecret: made.client_secret, webhookSecret: made.webhook_secret }}
        />
      )
    },
    list,
  )

  kit.personPage(`${APPS}/:client`, one('app'))
  kit.personAction(
    `${APPS}/:client`,
    async (c, data) => {
      await updateOwnedApp(c.deps.db, c.person.id, clientOf(c), {
        name: data.get('name') ?? '',
        redirectUris: redirectUriLines(data.get('redirect_uris') ?? ''),
      })
      return done(c, 'saved')
    },
    one('app'),
  )
  kit.personAction(
    `${APPS}/:client/roll`,
    async (c) => {
      const secret = await rollClientSecret(c.deps.db, c.person.id, clientOf(c))
      return (
        <AppPage
          c={c}
          form={EMPTY_FORM}
          secret={{ label: 'The new client secret. The old one no longer works.', value: secret }}
        />
      )
    },
    one('app'),
  )
  kit.personAction(
    `${APPS}/:client/delete`,
    async (c) => {
      await deleteOwnedApp(c.deps.db, c.person.id, clientOf(c))
      return redirect(`${APPS}?done=app_deleted`)
    },
    one('app'),
  )
  kit.personAction(
    `${APPS}/:client/webhook`,
    async (c, data) => {
      const set = await setOwnedAppWebhook(hookDeps(c), c.person.id, clientOf(c), {
        url: data.get('url') ?? '',
        events: data.getAll('events'),
      })
      if (set.secret)
        return (
          <AppPage
            c={c}
            form={EMPTY_FORM}
            secret={{ label: "The signing secret of the app's webhook.", value: set.secret }}
          />
        )
      return done(c, 'saved')
    },
    one('webhook'),
  )
  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    kit.personAction(
      `${APPS}/:client/webhook/${verb}`,
      async (c) => {
        await pauseOwnedAppWebhook(c.deps.db, c.person.id, clientOf(c), paused, c.deps.clock.now().toISOString())
        return done(c, paused ? 'webhook_paused' : 'webhook_resumed')
      },
      one('webhook'),
    )
  }
  kit.personAction(
    `${APPS}/:client/webhook/delete`,
    async (c) => {
      await deleteOwnedAppWebhook(c.deps.db, c.person.id, clientOf(c))
      return done(c, 'webhook_deleted')
    },
    one('webhook'),
  )
  kit.personAction(
    `${APPS}/:client/deliveries/:delivery/resend`,
    async (c) => {
      const delivery = Number(c.url.pathname.split('/').at(-2))
      await resendOwnedAppDelivery(c.deps.db, c.person.id, clientOf(c), delivery, c.deps.clock.now())
      return done(c, 'delivery_resent')
    },
    // A refused resend (webhook_paused, app_not_connected, webhooks_need_a_paid_plan) is told above the deliveries.
    one('deliveries'),
  )
}
