// Operations of email to a Client: send a document (extensions §3), remind of it by hand (§14), and the application's
// remind again and email a Receipt (§9).
import { Type as t } from '@sinclair/typebox'
import { idOf, json, onRecord, type ApplicationOperation, type Operation } from '../../platform/operation'
import { DocumentSchema, ISSUE_REFUSALS } from '../documents'
import { RemindBody, SendBody } from './mail.model'
import { sendDocument } from './send.service'
import { emailReceipt, remindDocument } from './app-mail.service'

const REMIND_REFUSALS = [
  'no_mail_provider_to_remind',
  'not_remindable',
  'converted_proforma',
  'no_client_address',
  'mail_account_lost',
  'sending_limit_reached',
] as const

const path = t.Object({ id: t.String({ description: 'document id' }) })

export const mailOperations: Operation[] = [
  {
    name: 'documents_send',
    tag: 'Documents',
    summary:
      'Send a document by email (a Draft is issued first); 502 not_delivered when the mail provider does not take it',
    description:
      "Sends the document to its Client (or to `to`, `cc`, `bcc`) through the Business's mail provider, the PDF attached. A Draft is issued first and keeps its number even when the email does not go out.",
    http: { method: 'POST', path: '/v1/documents/:id/send', status: 200 },
    path,
    body: t.Optional(SendBody),
    output: DocumentSchema,
    access: 'write',
    idempotent: false,
    refusals: [
      'cancelled_not_sent',
      'no_client_address',
      'no_mail_provider',
      'mail_account_lost',
      'sending_limit_reached',
      ...ISSUE_REFUSALS,
    ],
    notDelivered: true,
    mcp: true,
    async run(actor, { path, body }, { deps }) {
      return json(await sendDocument(deps, actor, idOf(path.id), body ?? undefined))
    },
  },
  {
    name: 'documents_remind',
    tag: 'Documents',
    summary:
      'Remind the Client by email that a document is due; 502 not_delivered when the mail provider does not take it',
    description:
      'Emails the Client (or `to`, `cc`, `bcc`) a reminder that an issued Invoice or a never-converted Proforma Invoice with an amount due is due, the PDF attached. The document then answers `last_reminded` (`step_days` null: by hand) and one more in `reminders_sent`; raises document.reminded.',
    http: { method: 'POST', path: '/v1/documents/:id/remind', status: 200 },
    path,
    body: t.Optional(RemindBody),
    output: DocumentSchema,
    access: 'write',
    idempotent: false,
    refusals: [...REMIND_REFUSALS],
    notDelivered: true,
    mcp: true,
    async run(actor, { path, body }, { deps }) {
      return json(await remindDocument(deps, actor, idOf(path.id, 'No such document.'), false, body ?? {}))
    },
  },
]

/** The application's own emails to the Client (extensions §9): no API route; their refusal codes are the contract's. */
export const mailAppOperations: ApplicationOperation[] = [
  {
    name: 'documents_remind_again',
    description: 'A reminder after a first one; refused `never_reminded` before it.',
    access: 'write',
    refusals: [...REMIND_REFUSALS, 'never_reminded'],
    notDelivered: true,
    async run(actor, { path }, { deps }) {
      return json(await remindDocument(deps, actor, idOf(path.id, 'No such document.'), true))
    },
  },
  {
    name: 'payments_email_receipt',
    description: "Emails a Payment's Receipt (its PDF) to the Client of the Payment's document.",
    access: 'write',
    refusals: [
      'no_receipt',
      'receipt_voided',
      'no_mail_provider_for_receipt',
      'no_client_address',
      'mail_account_lost',
      'sending_limit_reached',
    ],
    notDelivered: true,
    run: onRecord(emailReceipt, { missing: 'No such Payment.' }),
  },
]
