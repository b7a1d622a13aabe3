// Operation of sending a document by email (extensions §3): POST /v1/documents/{id}/send.
import { Type as t } from '@sinclair/typebox'
import { idOf, json, type Operation } from '../../platform/operation'
import { DocumentSchema, ISSUE_REFUSALS } from '../documents'
import { SendBody } from './mail.model'
import { sendDocument } from './send.service'

export const mailOperations: Operation[] = [
  {
    name: 'documents_send',
    tag: 'Documents',
    summary: 'Send a document by email (a Draft is issued first); 502 not_delivered when the mail provider does not take it',
    description:
      'Sends the document to its Client (or to `to`, `cc`, `bcc`) through the Business\'s mail provider, the PDF attached. A Draft is issued first and keeps its number even when the email does not go out.',
    http: { method: 'POST', path: '/v1/documents/:id/send', status: 200 },
    path: t.Object({ id: t.String({ description: 'document id' }) }),
    body: t.Optional(SendBody),
    output: DocumentSchema,
    access: 'write',
    idempotent: false,
    refusals: ['cancelled_not_sent', 'no_client_address', 'no_mail_provider', 'mail_account_lost', 'sending_limit_reached', ...ISSUE_REFUSALS],
    notDelivered: true,
    mcp: true,
    async run(actor, { path, body }, { deps }) {
      return json(await sendDocument(deps, actor, idOf(path.id), body ?? undefined))
    },
  },
]
