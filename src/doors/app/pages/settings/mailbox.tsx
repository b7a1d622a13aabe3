// Settings → Mailbox: the Business's own SMTP mailbox (its URL, which holds a password, is never shown back), or the
// service's own mail server when there is none. The API's connect_mail_provider remedy points here.
import { businessMailProvider, clearMailbox, setMailbox } from '../../../../modules/mail'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Field, Notice, PostForm, Refused, esc } from '../../ui'
import { SettingsLayout } from './index'

const KIND_WORDS: Record<string, string> = { service: 'the service’s own mail server', smtp: 'its own SMTP mailbox', google: 'a Google mailbox', microsoft: 'a Microsoft mailbox' }

async function MailboxPage({ c, form }: { c: InBusiness; form: FormState }): Promise<string> {
  const provider = await businessMailProvider(c.deps.db.read, c.business, c.deps.config.mailRelay)
  return (
    <SettingsLayout c={c} title="Mailbox" path="/mailbox">
      <h1>Mailbox</h1>
      <Notice text={c.notice} />
      <div class="card">
        {provider ? (
          <p class="flush">
            Documents are sent from <strong>{esc(provider.address)}</strong> through {esc(KIND_WORDS[provider.kind] ?? provider.kind)}.
          </p>
        ) : (
          <p class="flush notice bad">
            Nothing sends this Business’s email: give it an email address in Business setup (when this service runs a mail server), or connect a mailbox below.
          </p>
        )}
      </div>
      <section class="card" aria-labelledby="smtp-h">
        <h2 id="smtp-h" class="flush">
          Connect an SMTP mailbox
        </h2>
        <Refused state={form} shown={['smtp', 'from']} />
        <PostForm action={`${c.base}/settings/mailbox`} token={c.csrf}>
          <Field name="smtp" label="Server" type="password" state={form} required autocomplete="off" hint="smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465. Stored sealed; never shown again." />
          <Field name="from" label="From address" type="email" state={form} required maxlength={255} />
          <div>
            <button type="submit">Connect</button>
          </div>
        </PostForm>
      </section>
      {provider && provider.kind !== 'service' ? (
        <PostForm action={`${c.base}/settings/mailbox/clear`} token={c.csrf} class="inline">
          <button type="submit" class="danger">
            Remove the mailbox
          </button>
        </PostForm>
      ) : (
        ''
      )}
    </SettingsLayout>
  )
}

export function mailboxSettings(kit: AppKit): void {
  const render = (c: InBusiness, form: FormState) => <MailboxPage c={c} form={form} />
  kit.page('/settings/mailbox', 'settings', render)
  kit.action(
    '/settings/mailbox',
    'manage',
    async (c, d) => {
      await setMailbox(c.deps.db, c.deps.clock, c.business.id, { kind: 'smtp', smtpUrl: d.get('smtp') ?? '', from: d.get('from') ?? '' })
      return kit.done(c, '/settings/mailbox', 'saved')
    },
    render,
  )
  kit.action(
    '/settings/mailbox/clear',
    'manage',
    async (c) => {
      await clearMailbox(c.deps.db, c.business.id)
      return kit.done(c, '/settings/mailbox', 'mailbox_cleared')
    },
    render,
  )
}
