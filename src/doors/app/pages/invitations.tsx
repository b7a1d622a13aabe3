// Invitations (extensions §8): the Businesses that invited the signed-in person, each accepted or declined here. A
// membership acts only once its own person accepts it, signed in, so whoever invited them cannot act in their name.
import { acceptInvitation, businessesOfPerson, declineInvitation } from '../../../modules/people'
import type { FormState, Signed } from '../context'
import { redirect } from '../http'
import type { AppKit } from '../kit'
import { Layout } from '../layout'
import { Notice, PostForm, Refused, When, esc } from '../ui'

const ROLE_WORDS = { owner: 'Owner', admin: 'Admin', member: 'Member', viewer: 'Viewer' } as const

async function InvitationsPage({ c, form }: { c: Signed; form: FormState }): Promise<string> {
  const { invitations } = await businessesOfPerson(c.deps.db.read, c.person.id)
  return (
    <Layout c={c} title="Invitations" section="invitations">
      <h1>Invitations</h1>
      <p class="lead">Businesses that invited {esc(c.person.email)}. You join one only by accepting here.</p>
      <Notice text={c.notice} />
      <Refused state={form} />
      {invitations.length === 0 ? (
        <div class="card">
          <p>No invitation is waiting for you.</p>
          <p>
            <a href="/app">Back to the application</a>
          </p>
        </div>
      ) : (
        <>
          {invitations.map((i) => (
            <section class="card" aria-labelledby={`inv-${esc(i.publicId)}`}>
              <h2 id={`inv-${esc(i.publicId)}`} class="flush">
                {esc(i.businessName)}
              </h2>
              <p>
                As {ROLE_WORDS[i.role]}, invited <When at={i.invitedAt} />.
              </p>
              <div class="row">
                <PostForm action="/app/invitations/accept" token={c.csrf} class="inline">
                  <input type="hidden" name="business" value={esc(i.publicId)} />
                  <button type="submit" aria-label={esc(`Accept the invitation of ${i.businessName}`)}>
                    Accept
                  </button>
                </PostForm>
                <PostForm action="/app/invitations/decline" token={c.csrf} class="inline">
                  <input type="hidden" name="business" value={esc(i.publicId)} />
                  <button type="submit" class="quiet" aria-label={esc(`Decline the invitation of ${i.businessName}`)}>
                    Decline
                  </button>
                </PostForm>
              </div>
            </section>
          ))}
        </>
      )}
    </Layout>
  )
}

export function invitationsRoutes(kit: AppKit): void {
  const render = (c: Signed, form: FormState) => <InvitationsPage c={c} form={form} />
  kit.personPage('/app/invitations', render)
  kit.personAction(
    '/app/invitations/accept',
    async (c, data) => {
      const { publicId } = await acceptInvitation(kit.deps, c.person.id, data.get('business') ?? '')
      return redirect(`/app/b/${publicId}?done=invitation_accepted`)
    },
    render,
  )
  kit.personAction(
    '/app/invitations/decline',
    async (c, data) => {
      await declineInvitation(kit.deps, c.person.id, data.get('business') ?? '')
      return redirect('/app/invitations?done=invitation_declined')
    },
    render,
  )
}
