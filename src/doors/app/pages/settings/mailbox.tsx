// Settings → Mailbox: the Business's own SMTP mailbox, asked part by part (host, port, security, username, password,
// From address), or the service's own mail server when there is none. The password is never shown back: left blank it
// keeps the stored one. The parts go through setSmtpMailbox, which makes the one URL the CLI's path checks and seals.
// The API's connect_mail_provider remedy points here.
import { businessMailProvider, smtpMailboxShown } from '../../../../modules/mailbox'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, Refused, Select, esc } from '../../ui'
import { ButtonForm, FieldsForm, Section } from '../../settings-parts'
import { SettingsLayout, settingsPage } from './index'
import { OutboxNote } from '../daily/outbox'

const KIND_WORDS: Record<string, string> = {
  service: 'the service’s own mail server',
  smtp: 'its own SMTP mailbox',
  google: 'a Google mailbox',
  microsoft: 'a Microsoft mailbox',
}
const FIELDS = ['host', 'port', 'security', 'username', 'password', 'from'] as const
const SECURITY_OPTIONS = [
  ['starttls', 'STARTTLS (usually port 587)'],
  ['tls', 'TLS from the start (usually port 465)'],
] as const

async function MailboxPage({ c, form }: { c: InBusiness; form: FormState }): Promise<string> {
  const [provider, smtp] = await Promise.all([
    businessMailProvider(c.deps.db.read, c.business, c.deps.config.mailRelay),
    smtpMailboxShown(c.deps.db.read, c.deps.db.secrets, c.business.id),
  ])
  return (
    <SettingsLayout c={c} title="Mailbox" path="/mailbox">
      <h1>Mailbox</h1>
      <Notice text={c.notice} />
      <OutboxNote c={c} what="email to a Client (a document, a reminder, a Receipt)" />
      <div class="card">
        {provider ? (
          <p class="flush" id="mail-provider">
            Documents are sent from <strong>{esc(provider.address)}</strong> through{' '}
            {esc(KIND_WORDS[provider.kind] ?? provider.kind)}.
          </p>
        ) : (
          <p class="flush notice bad" id="mail-provider">
            Nothing sends this Business’s email: give it an email address in Business setup (when this service runs a
            mail server), or connect a mailbox below.
          </p>
        )}
      </div>
      <Section id="smtp-h" title={smtp ? 'Its SMTP mailbox' : 'Connect an SMTP mailbox'}>
        <Refused state={form} shown={[...FIELDS]} />
        <FieldsForm
          action={`${c.base}/settings/mailbox`}
          token={c.csrf}
          id="mailbox-form"
          submit={smtp ? 'Save the mailbox' : 'Connect'}
        >
          <div class="grid2">
            <Field
              name="host"
              label="Server (host)"
              state={form}
              value={smtp?.host}
              required
              maxlength={253}
              autocomplete="off"
              placeholder="smtp.example.com"
            />
            <Field
              name="port"
              label="Port"
              state={form}
              value={smtp ? String(smtp.port) : ''}
              maxlength={5}
              hint="Blank: 587 with STARTTLS, 465 with TLS."
            />
          </div>
          <Select
            name="security"
            label="Security"
            state={form}
            value={smtp?.security ?? 'starttls'}
            options={SECURITY_OPTIONS}
            hint="The connection is always encrypted: a server that offers no STARTTLS is refused."
          />
          <div class="grid2">
            <Field
              name="username"
              label="Username"
              state={form}
              value={smtp?.username}
              maxlength={255}
              autocomplete="off"
            />
            <Field
              name="password"
              label="Password"
              type="password"
              state={form}
              autocomplete="new-password"
              maxlength={1000}
              hint={
                smtp?.hasPassword
                  ? 'A password is stored (sealed, never shown): leave blank to keep it.'
                  : 'Stored sealed; never shown again.'
              }
            />
          </div>
          <Field
            name="from"
            label="From address"
            type="email"
            state={form}
            value={smtp?.from}
            required
            maxlength={255}
            hint="The address documents are sent from; the mailbox must allow it."
          />
        </FieldsForm>
      </Section>
      {provider && provider.kind !== 'service' ? (
        <ButtonForm
          action={`${c.base}/settings/mailbox/clear`}
          token={c.csrf}
          kind="danger"
          label="Remove the mailbox"
        />
      ) : (
        ''
      )}
    </SettingsLayout>
  )
}

export function mailboxSettings(kit: AppKit): void {
  const page = settingsPage(kit, '/settings/mailbox', (c, form) => <MailboxPage c={c} form={form} />)
  page.change('', 'mailbox_set_smtp', 'saved', (d) => ({
    body: {
      host: d.get('host') ?? undefined,
      port: d.get('port') ?? undefined,
      security: d.get('security') ?? undefined,
      username: d.get('username') ?? undefined,
      password: d.get('password') ?? undefined,
      from: d.get('from') ?? undefined,
    },
  }))
  page.change('/clear', 'mailbox_clear', 'mailbox_cleared')
}
