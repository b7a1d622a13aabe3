// The application's entry: /app opens the person's first Business, the switcher moves between Businesses, and each
// Business has a home page (the daily-work pages replace it with the dashboard).
import { htmlResponse, redirect } from '../http'
import type { AppKit } from '../kit'
import { Layout } from '../layout'
import { esc } from '../ui'

const PLAN_WORDS = { free: 'Free', pro: 'Pro', pro_plus: 'Pro Plus', paused: 'Paused' } as const

export function homeRoutes(kit: AppKit): void {
  kit.open('GET', '/app', async (req) => {
    const c = await kit.signed(req)
    if (c instanceof Response) return c
    // A signed-in person lands in their first Business; with none, this page says so.
    if (c.businesses.length > 0) return redirect(`/app/b/${c.businesses[0]!.publicId}`)
    // Someone invited who has no Business yet (just chose a password from an invitation) accepts first.
    if (c.invitations > 0) return redirect('/app/invitations')
    return htmlResponse(
      await (
        <Layout c={c} title="No Business yet" section="home">
          <div class="card">
            <h1>No Business yet</h1>
            <p>
              You are not a member of any Business. Ask an Owner of one to add you, or the person who runs this service.
            </p>
          </div>
        </Layout>
      ),
    )
  })

  kit.open('GET', '/app/switch', async (req) => {
    const c = await kit.signed(req)
    if (c instanceof Response) return c
    const wanted = new URL(req.url).searchParams.get('business')
    const b = c.businesses.find((x) => x.publicId === wanted) ?? c.businesses[0]
    return redirect(b ? `/app/b/${b.publicId}` : '/app')
  })

  // A Business's home page is the dashboard (pages/daily/dashboard.tsx).
}
