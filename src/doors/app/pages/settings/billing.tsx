// Settings → Billing: the plan, which the operator sets. The one page an Owner still opens on a Paused Business.
import type { InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { esc } from '../../ui'
import { SettingsLayout } from './index'

const PLANS = {
  free: [
    'Free',
    'Everyone reads; only the Owner makes changes. No Public API, no webhooks; a yearly limit on Invoices.',
  ],
  pro: [
    'Pro',
    'Every Role works as its Role allows; the Public API and webhooks; 100 email recipients a day through the service.',
  ],
  pro_plus: ['Pro Plus', 'As Pro, with 200 email recipients a day through the service.'],
  paused: ['Paused', 'Nobody opens the Business but its Owner, here. Choose a plan to open it again.'],
} as const

export function billingSettings(kit: AppKit): void {
  kit.page('/settings/billing', 'billing', (c: InBusiness) => {
    const [name, words] = PLANS[c.business.plan]
    return (
      <SettingsLayout c={c} title="Billing" path="/billing">
        <h1>Billing</h1>
        <div class="card">
          <p class="flush">
            This Business is on the <strong>{name}</strong> plan{c.business.isTest ? ' (a Test business)' : ''}.
          </p>
          <p>{words}</p>
        </div>
        <div class="card">
          <h2 class="flush">Choosing a plan</h2>
          <p>The plan is set by whoever runs this service. Ask them to run:</p>
          <code class="secret">invoicing business update {esc(c.business.publicId)} --plan pro</code>
        </div>
      </SettingsLayout>
    )
  })
}
