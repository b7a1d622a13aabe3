// The one layout of the application: header with the Business switcher and sign-out, the main navigation, the page.
import type { Children } from '@kitajs/html'
import type { InBusiness, Signed } from './context'
import { Csrf, esc } from './ui'
import { roleAllows } from '../../platform/policy'

export const STYLESHEET_PATH = '/app/assets/app.css'
/** htmx, loaded only by pages that ask for it (the document editor's live totals). */
export const HTMX_PATH = '/app/assets/htmx.js'

/** The bare page: signed-out pages (sign-in, choose a password) use it alone. */
export function Document(props: {
  title: string
  scripts?: string[]
  children?: JSX.Element | JSX.Element[]
}): JSX.Element {
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{esc(props.title)} · invoicing</title>
          <link rel="stylesheet" href={STYLESHEET_PATH} />
          {/* No icon to fetch: a browser would otherwise ask /favicon.ico, outside the application. */}
          <link rel="icon" href="data:," />
          {(props.scripts ?? []).map((src) => (
            <script src={src} defer></script>
          ))}
        </head>
        <body>{props.children}</body>
      </html>
    </>
  )
}

const ROLE_WORDS = { owner: 'Owner', admin: 'Admin', member: 'Member', viewer: 'Viewer' } as const

function Switcher({ c }: { c: Signed & Partial<InBusiness> }): JSX.Element {
  if (c.businesses.length === 0) return ''
  return (
    <form method="get" action="/app/switch" class="switcher">
      <label for="switch-business" class="muted">
        Business
      </label>
      <select id="switch-business" name="business">
        {c.businesses.map((b) => (
          <option value={esc(b.publicId)} selected={b.publicId === c.business?.publicId}>
            {esc(b.name)} ({ROLE_WORDS[b.role]})
          </option>
        ))}
      </select>
      <button type="submit" class="quiet">
        Open
      </button>
    </form>
  )
}

export type Section = 'home' | 'settings' | 'profile' | (string & {})

/** Main navigation of a Business; the daily-work pages add their entries here. */
export const NAV: ReadonlyArray<{ section: Section; label: string; path: string; settings?: true; test?: true }> = [
  { section: 'home', label: 'Home', path: '/' },
  { section: 'documents', label: 'Documents', path: '/documents' },
  { section: 'recurring', label: 'Recurring', path: '/recurring' },
  { section: 'clients', label: 'Clients', path: '/clients' },
  { section: 'products', label: 'Products', path: '/products' },
  { section: 'receipts', label: 'Receipts', path: '/receipts' },
  { section: 'bank', label: 'Bank', path: '/bank' },
  { section: 'reports', label: 'Reports', path: '/reports' },
  { section: 'settings', label: 'Settings', path: '/settings', settings: true },
  // A Test business keeps its emails to Clients in an outbox instead of sending them (issue 32).
  { section: 'outbox', label: 'Outbox', path: '/outbox', test: true },
]

/** A signed-in page: header, navigation (of the Business when there is one), then the content. */
export function Layout(props: {
  c: Signed & Partial<InBusiness>
  title: string
  section: Section
  scripts?: string[]
  children?: JSX.Element | JSX.Element[]
}): JSX.Element {
  const { c } = props
  const mayManage = c.role !== undefined && roleAllows(c.role, 'admin')
  return (
    <Document title={props.title} scripts={props.scripts}>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <div class="bar">
          <a class="brand" href="/app">
            invoicing
          </a>
          <Switcher c={c} />
          {c.invitations > 0 ? (
            <a href="/app/invitations" aria-current={props.section === 'invitations' ? 'page' : undefined}>
              Invitations ({c.invitations})
            </a>
          ) : (
            ''
          )}
          <a href="/app/profile" aria-current={props.section === 'profile' ? 'page' : undefined}>
            {esc(c.person.name)}
          </a>
          <form method="post" action="/app/sign-out" class="inline">
            <Csrf token={c.csrf} />
            <button type="submit" class="link">
              Sign out
            </button>
          </form>
        </div>
        {c.base ? (
          <nav class="main" aria-label="Business">
            {NAV.filter((n) => (!n.settings || mayManage) && (!n.test || c.business?.isTest)).map((n) => (
              <a href={esc(c.base + n.path)} aria-current={n.section === props.section ? 'page' : undefined}>
                {esc(n.label)}
              </a>
            ))}
          </nav>
        ) : (
          ''
        )}
      </header>
      <main id="content">{props.children}</main>
    </Document>
  )
}

/**
 * A card of a page named by its heading (for screen readers too). `beside` stands at the heading's right, such as a
 * report's CSV link.
 */
export function CardSection(p: { id: string; title: string; beside?: JSX.Element; children?: Children }): JSX.Element {
  return (
    <section class="card" aria-labelledby={p.id}>
      {p.beside ? (
        <div class="row spread">
          <h2 id={p.id} class="flush">
            {esc(p.title)}
          </h2>
          {p.beside}
        </div>
      ) : (
        <h2 id={p.id} class="flush-top">
          {esc(p.title)}
        </h2>
      )}
      {p.children}
    </section>
  )
}

/** A page that is one form (a new Client, a Product's edit): its title as the heading, then the form in a card. */
export function FormPage(p: {
  c: Signed & Partial<InBusiness>
  title: string
  section: Section
  scripts?: string[]
  children?: Children
}): JSX.Element {
  return (
    <Layout c={p.c} title={p.title} section={p.section} scripts={p.scripts}>
      <h1>{esc(p.title)}</h1>
      <div class="card">{p.children}</div>
    </Layout>
  )
}
