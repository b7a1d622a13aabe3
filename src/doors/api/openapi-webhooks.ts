// The OpenAPI `webhooks` section: each event a Business's webhook hears, with its DocumentEvent or PaymentEvent body.
import { t } from 'elysia'
import { DocumentSchema } from '../../modules/documents'
import { PaymentSchema, RefundSchema } from '../../modules/payments'

const envelope = (title: string, key: 'document' | 'payment' | 'refund', subject: unknown) =>
  t.Object(
    {
      type: t.String({ description: 'the event name; ignore an unknown one and answer 2xx' }),
      timestamp: t.String({ description: 'when it happened, UTC, ISO 8601 with microseconds' }),
      business_id: t.String({ format: 'uuid', description: 'the Business, as GET /v1/business answers business_id' }),
      data: t.Object({ [key]: subject as never }),
    },
    { title },
  )

const DocumentEvent = envelope('DocumentEvent', 'document', DocumentSchema)
const PaymentEvent = envelope('PaymentEvent', 'payment', PaymentSchema)
const RefundEvent = envelope('RefundEvent', 'refund', RefundSchema)

const HEADERS = {
  'webhook-id': {
    description: 'msg_ + 26 characters; the same on every retry and resend; handle each id once',
    schema: { type: 'string' },
  },
  'webhook-timestamp': { description: 'Unix seconds of this attempt', schema: { type: 'string' } },
  'webhook-signature': {
    description: 'v1,<base64 HMAC-SHA256 of id.timestamp.body>; two, space-separated, for 24 hours after a secret roll',
    schema: { type: 'string' },
  },
}

function operation(event: string, schema: unknown, summary: string) {
  return {
    post: {
      summary,
      operationId: `webhook_${event.replace('.', '_')}`,
      parameters: Object.entries(HEADERS).map(([name, h]) => ({ name, in: 'header', required: true, ...h })),
      requestBody: { required: true, content: { 'application/json': { schema } } },
      responses: {
        '200': {
          description: 'any 2xx within 15 seconds: delivered; 410 pauses the webhook; anything else is retried',
        },
      },
    },
  }
}

export const openApiWebhooks = {
  'document.issued': operation('document.issued', DocumentEvent, 'A document was issued and took its number'),
  'document.sent': operation('document.sent', DocumentEvent, 'A document was emailed to its Client'),
  'document.viewed': operation(
    'document.viewed',
    DocumentEvent,
    "The Client opened the document's page for the first time",
  ),
  'document.paid': operation('document.paid', DocumentEvent, 'Amount due reached zero'),
  'document.cancelled': operation(
    'document.cancelled',
    DocumentEvent,
    'A document was cancelled (it keeps its number)',
  ),
  'document.reminded': operation(
    'document.reminded',
    DocumentEvent,
    'The Client was reminded by email that the document is due',
  ),
  'payment.recorded': operation('payment.recorded', PaymentEvent, 'A Payment was recorded, with its Receipt'),
  'payment.reversed': operation(
    'payment.reversed',
    PaymentEvent,
    'A Payment was reversed: voided, its Receipt kept with voided_at',
  ),
  'refund.recorded': operation('refund.recorded', RefundEvent, 'A Refund of a Credit Note was recorded'),
  'refund.reversed': operation('refund.reversed', RefundEvent, 'A Refund was reversed: voided, kept'),
}
