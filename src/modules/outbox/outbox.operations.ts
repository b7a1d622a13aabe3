// The application's reads of a Test business's outbox (issue 32): its list, one message, an attachment, the whole
// message as an .eml. Any Role of the Business reads them; only a Test business has an outbox (else 404).
import { idOf, json, listRun, type ApplicationOperation } from '../../platform/operation'
import { NotFound } from '../../shared/errors'
import { listOutbox, NO_MESSAGE, outboxAttachment, outboxRaw, presentKept, readOutboxMessage } from './outbox.service'

export const outboxAppOperations: ApplicationOperation[] = [
  {
    name: 'outbox_list',
    description: "The Test business's outbox, newest first, paged: From, To, Cc, Bcc, subject, attachments.",
    access: 'read',
    refusals: [],
    run: listRun({
      list: 'outbox',
      rows: ({ deps }, actor, before, n) => listOutbox(deps.db, actor.businessId, before, n),
      present: presentKept,
    }),
  },
  {
    name: 'outbox_get',
    description: 'One kept message, read back from its MIME bytes: headers, text and HTML bodies, attachments.',
    access: 'read',
    refusals: [],
    async run(actor, { path }, { deps }) {
      return json(await readOutboxMessage(deps.db, actor.businessId, idOf(path.id, NO_MESSAGE)))
    },
  },
  {
    name: 'outbox_attachment',
    description: 'An attachment of a kept message (by its place, from 0), as the message carries it.',
    access: 'read',
    refusals: [],
    async run(actor, { path }, { deps }) {
      const index = path.index ?? ''
      if (!/^[0-9]{1,3}$/.test(index)) throw new NotFound('No such attachment.')
      const file = await outboxAttachment(deps.db, actor.businessId, idOf(path.id, NO_MESSAGE), Number(index))
      return { kind: 'file', file }
    },
  },
  {
    name: 'outbox_raw',
    description: 'The whole kept message as it would have gone out (message/rfc822).',
    access: 'read',
    refusals: [],
    async run(actor, { path }, { deps }) {
      return { kind: 'file', file: await outboxRaw(deps.db, actor.businessId, idOf(path.id, NO_MESSAGE)) }
    },
  },
]
