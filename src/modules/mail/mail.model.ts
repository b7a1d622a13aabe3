// TypeBox model of the Send body (POST /v1/documents/{id}/send); every field is optional, unknown ones refused.
import { Type as t } from '@sinclair/typebox'
import { Nullable } from '../../shared/schemas'
import { MAX_RECIPIENTS_PER_SEND } from '../mailbox'

const Email = t.String({ format: 'email', maxLength: 255 })
const Addresses = (description: string, minItems = 0) =>
  t.Array(Email, { minItems, maxItems: MAX_RECIPIENTS_PER_SEND, description })

export const SendBody = t.Object(
  {
    to: t.Optional(Nullable(Addresses("default: the Client's email", 1))),
    cc: t.Optional(Nullable(Addresses('copies'))),
    bcc: t.Optional(Nullable(Addresses('blind copies: in the envelope only, never in the headers'))),
    subject: t.Optional(
      Nullable(
        t.String({ maxLength: 255, description: 'default: the document type, its number and the Business name' }),
      ),
    ),
    message: t.Optional(
      Nullable(
        t.String({
          maxLength: 10000,
          description: 'the email text; default: a short note naming the document, its total and due date',
        }),
      ),
    ),
  },
  {
    additionalProperties: false,
    title: 'SendDocument',
    description: `To, Cc and Bcc together take at most ${MAX_RECIPIENTS_PER_SEND} addresses`,
  },
)

export type SendInput = typeof SendBody.static

/** The body of a reminder by hand (POST /v1/documents/{id}/remind, extensions §14): as a Send's, every field optional. */
export const RemindBody = t.Object(SendBody.properties, {
  additionalProperties: false,
  title: 'RemindDocument',
  description: `To, Cc and Bcc together take at most ${MAX_RECIPIENTS_PER_SEND} addresses; subject and message default to the reminder's own`,
})
