// Settings of a Business (extensions §9): Owner and Admin open them; each page is its own file beside this one, in
// the side menu's layout, registered with settingsPage and built of the parts in ../../settings-parts.tsx.
import { redirect, type PostedForm } from '../../http'
import type { AppKit, Handler, NOTICES, PageInput, Render } from '../../kit'
import { Layout } from '../../layout'
import type { InBusiness } from '../../context'
import { esc } from '../../ui'
import { businessSettings } from './business'
import { membersSettings } from './members'
import { keysSettings } from './keys'
import { webhooksSettings } from './webhooks'
import { connectedAppsSettings } from './connected-apps'
import { mailboxSettings } from './mailbox'
import { bankAccountsSettings } from './bank-accounts'
import { numberingSettings } from './numbering'
import { billingSettings } from './billing'
import { remindersSettings } from './reminders'
import { journalSettings } from './journal'

/** The settings pages in the order the side menu shows them. */
export const SETTINGS_PAGES: ReadonlyArray<{ path: string; label: string }> = [
  { path: '/business', label: 'Business setup' },
  { path: '/members', label: 'Members' },
  { path: '/keys', label: 'API keys' },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/connected-apps', label: 'Connected apps' },
  { path: '/mailbox', label: 'Mailbox' },
  { path: '/bank-accounts', label: 'Bank accounts' },
  { path: '/numbering', label: 'Numbering' },
  { path: '/billing', label: 'Billing' },
  { path: '/reminders', label: 'Reminders' },
  { path: '/journal', label: 'Journal' },
]

export function SettingsLayout(props: {
  c: InBusiness
  title: string
  path: string
  children?: JSX.Element | JSX.Element[]
}): JSX.Element {
  return (
    <Layout c={props.c} title={props.title} section="settings">
      <div class="with-side">
        <nav class="side" aria-label="Settings">
          {SETTINGS_PAGES.map((p) => (
            <a
              href={esc(`${props.c.base}/settings${p.path}`)}
              aria-current={p.path === props.path ? 'page' : undefined}
            >
              {esc(p.label)}
            </a>
          ))}
        </nav>
        <div>{props.children}</div>
      </div>
    </Layout>
  )
}

/**
 * A settings page and the changes made on it: the page opens for the people the policy lets into settings, its
 * changes (at `path` + their own path) for those it lets manage them, and a refused change shows the page again with
 * what was typed.
 */
export function settingsPage(kit: AppKit, path: string, render: Render<InBusiness>) {
  kit.page(path, 'settings', render)
  /** A change that answers as it likes (a secret shown once, a redirect of its own). */
  const action = (sub: string, handler: Handler<InBusiness>, opts: { upload?: boolean } = {}): void =>
    kit.action(`${path}${sub}`, 'manage', handler, render, opts)
  /** A change that runs one operation with what `input` reads from the form, then shows the page with `notice`. */
  const change = (
    sub: string,
    operation: string,
    notice: keyof typeof NOTICES,
    input: (d: PostedForm, c: InBusiness) => PageInput = () => ({}),
    opts: { upload?: boolean } = {},
  ): void =>
    action(
      sub,
      async (c, d) => {
        await kit.operation(c, operation, input(d, c))
        return kit.done(c, path, notice)
      },
      opts,
    )
  return { action, change }
}

export function settingsRoutes(kit: AppKit): void {
  kit.page('/settings', 'settings', (c) => (
    <SettingsLayout c={c} title="Settings" path="">
      <h1>Settings</h1>
      <p class="lead">What this Business is set up with. Owners and Admins change it.</p>
      <ul>
        {SETTINGS_PAGES.map((p) => (
          <li>
            <a href={esc(`${c.base}/settings${p.path}`)}>{esc(p.label)}</a>
          </li>
        ))}
      </ul>
    </SettingsLayout>
  ))

  // The API's remedy_url names a settings page without a Business (the API does not know the person): one Business
  // goes straight there, several are offered to choose from.
  kit.open('GET', '/app/settings/:page', async (req, params) => {
    const c = await kit.signed(req)
    if (c instanceof Response) return c
    const page = SETTINGS_PAGES.find((p) => p.path === `/${params.page}`)
    if (!page) return kit.bare(404, 'Not found', 'There is no such settings page.')
    if (c.businesses.length === 1) return redirect(`/app/b/${c.businesses[0]!.publicId}/settings${page.path}`)
    return kit.answer(
      c,
      <Layout c={c} title={page.label} section="settings">
        <div class="card">
          <h1>{esc(page.label)}: which Business?</h1>
          {c.businesses.length === 0 ? <p>You are not a member of any Business.</p> : ''}
          <ul>
            {c.businesses.map((b) => (
              <li>
                <a href={esc(`/app/b/${b.publicId}/settings${page.path}`)}>{esc(b.name)}</a>
              </li>
            ))}
          </ul>
        </div>
      </Layout>,
    )
  })

  businessSettings(kit)
  membersSettings(kit)
  keysSettings(kit)
  webhooksSettings(kit)
  connectedAppsSettings(kit)
  mailboxSettings(kit)
  bankAccountsSettings(kit)
  numberingSettings(kit)
  billingSettings(kit)
  remindersSettings(kit)
  journalSettings(kit)
}
