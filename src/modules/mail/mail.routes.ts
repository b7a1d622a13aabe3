// HTTP route of sending a document by email (extensions §3): POST /v1/documents/{id}/send.
import { Elysia, t } from 'elysia'
import { actorOf } from '../../http/context'
import { pathId, type HttpServices } from '../../http/route-helpers'
import { errorAnswers } from '../../http/schemas'
import { DocumentSchema } from '../documents'
import { SendBody } from './mail.model'
import { sendDocument, type MailDeps } from './mail.service'

export function mailRoutes(deps: MailDeps, _http: HttpServices) {
  return new Elysia({ name: 'mail' }).post('/v1/documents/:id/send', ({ request, params, body }) => sendDocument(deps, actorOf(request), pathId(params.id), body ?? undefined), {
    params: t.Object({ id: t.String({ description: 'document id' }) }),
    body: t.Optional(SendBody),
    response: { 200: DocumentSchema, ...errorAnswers(404, 422, 502, 400, 413, 415) },
    detail: {
      tags: ['Documents'],
      summary: 'Send a document by email (a Draft is issued first); 502 not_delivered when the mail provider does not take it',
    },
  })
}
