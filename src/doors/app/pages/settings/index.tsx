// Settings of a Business (extensions §9): Owner and Admin open them; each page is its own file beside this one.
import type { AppKit } from '../../kit'
import { Layout } from '../../layout'
import type { InBusiness } from '../../context'
import { esc } from '../../ui'

/** The settings pages in the order the side menu shows them. */
export const SETTINGS_PAGES: ReadonlyArray<{ path: string; label: string }> = []

export function SettingsLayout(props: { c: InBusiness; title: string; path: string; children?: JSX.Element | JSX.Element[] }): JSX.Element {
  return (
    <Layout c={props.c} title={props.title} section="settings">
      <div class="with-side">
        <nav class="side" aria-label="Settings">
          {SETTINGS_PAGES.map((p) => (
            <a href={esc(`${props.c.base}/settings${p.path}`)} aria-current={p.path === props.path ? 'page' : undefined}>
              {esc(p.label)}
            </a>
          ))}
        </nav>
        <div>{props.children}</div>
      </div>
    </Layout>
  )
}

export function settingsRoutes(kit: AppKit): void {
  kit.page('/settings', 'settings', (c) => (
    <SettingsLayout c={c} title="Settings" path="">
      <h1>Settings</h1>
      <p class="lead">Choose what to set up.</p>
    </SettingsLayout>
  ))
}
