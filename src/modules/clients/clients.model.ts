// TypeBox models of the Client: request bodies, the answer, the list query.
import { Type as t } from '@sinclair/typebox'
import { bodyRule } from '../../shared/body-rules'
import type { FieldErrors } from '../../shared/errors'
import { Text } from '../../shared/text-schema'
import { Amount, Bool, DecimalInput, Int, ListQuery, Nullable, Paged, Timestamp } from '../../shared/schemas'
import { CurrencyCode } from '../../shared/format-schemas'

// Limits count characters of the value as stored (trimmed by blank()), not UTF-16 units: see Text.
/** The words the service and the body rule both use for a Client with neither name nor legal_name. */
export const NAME_REQUIRED = 'is required when legal_name is blank'

const str = (maxLength?: number) => Nullable(maxLength ? Text({ maxLength }) : t.String())

export const ClientSchema = t.Object(
  {
    id: Int(),
    name: t.String(),
    legal_name: Nullable(t.String()),
    contact_person: Nullable(t.String()),
    email: Nullable(t.String()),
    phone: Nullable(t.String()),
    address: Nullable(t.String()),
    city: Nullable(t.String()),
    postal_code: Nullable(t.String()),
    country: t.String({ pattern: '^[A-Z]{2}$' }),
    vat_number: Nullable(t.String()),
    vat_verified: Bool(),
    account_code: Nullable(t.String()),
    currency: CurrencyCode,
    payment_terms: Int({ minimum: 0 }),
    is_active: Bool(),
    created_at: Timestamp,
    updated_at: Timestamp,
    credit_limit: Nullable(Amount),
    notes: Nullable(t.String()),
    preferred_bank_account_ids: t.Array(Int()),
    electronic_address: Nullable(
      t.Object(
        { scheme: t.String(), value: t.String() },
        { description: "BT-49, the Buyer's electronic address; default EM with the Client email" },
      ),
    ),
    buyer_reference: Nullable(
      t.String({ description: 'BT-10, the default buyer reference of its documents (e.g. a Leitweg-ID)' }),
    ),
    reminders: t.Boolean({ description: "false keeps the Client's documents out of automatic payment reminders" }),
    language: Nullable(
      t.String({
        description: "the language of its documents and emails (en, de, fr, es, it, nl, pl, pt); null: the Business's",
      }),
    ),
  },
  { title: 'Client' },
)

const fields = {
  name: t.Optional(str(255)),
  legal_name: t.Optional(str(255)),
  contact_person: t.Optional(str(255)),
  phone: t.Optional(str(50)),
  address: t.Optional(str(1000)),
  city: t.Optional(str(100)),
  postal_code: t.Optional(str(20)),
  vat_number: t.Optional(str(50)),
  account_code: t.Optional(str(100)),
  // A code, judged by the service; its limit stays a plain one.
  currency: t.Optional(Nullable(t.String({ maxLength: 3 }))),
  payment_terms: t.Optional(Nullable(Int({ minimum: 0, maximum: 999999 }))),
  credit_limit: t.Optional(Nullable(DecimalInput)),
  notes: t.Optional(str(10000)),
  preferred_bank_account_ids: t.Optional(Nullable(t.Array(Int({ minimum: 1 }), { maxItems: 100 }))),
  electronic_address: t.Optional(
    Nullable(
      t.Object(
        {
          scheme: t.String({
            maxLength: 4,
            description: 'CEF EAS code: 0088 GLN, 9930 German VAT number, EM email, ...',
          }),
          value: Text({ maxLength: 200 }),
        },
        {
          additionalProperties: false,
          description: "BT-49, the Buyer's electronic address (Peppol endpoint); null takes EM with the Client email",
        },
      ),
    ),
  ),
  buyer_reference: t.Optional(str(200)),
  reminders: t.Optional(
    t.Boolean({ description: "false keeps the Client's documents out of automatic payment reminders" }),
  ),
  // A code, judged by the service (422 naming language); its limit stays a plain one.
  language: t.Optional(
    Nullable(
      t.String({
        maxLength: 10,
        description:
          "the language of its documents and emails: en, de, fr, es, it, nl, pl or pt; null takes the Business's",
      }),
    ),
  ),
}

export const ClientCreateBody = t.Object(
  {
    email: Text({ maxLength: 255 }),
    country: t.String({ maxLength: 2 }),
    ...fields,
  },
  { additionalProperties: false, title: 'ClientCreate' },
)

// Asked with the schema's own faults, so an empty body names email, country and name in one answer.
bodyRule('ClientCreate', (body): FieldErrors => {
  const filled = (v: unknown) => typeof v === 'string' && v.trim() !== ''
  return filled(body.name) || filled(body.legal_name) ? {} : { name: [NAME_REQUIRED] }
})

export const ClientUpdateBody = t.Object(
  {
    email: t.Optional(Text({ maxLength: 255 })),
    country: t.Optional(t.String({ maxLength: 2 })),
    is_active: t.Optional(Bool()),
    ...fields,
  },
  { additionalProperties: false, title: 'ClientUpdate' },
)

export const ClientListQuery = t.Object({
  ...ListQuery,
  search: t.Optional(
    t.String({
      maxLength: 200,
      description: 'matches name, legal name, email, VAT number or account code, in any case',
    }),
  ),
})

export const ClientList = Paged(ClientSchema, 'ClientList')

export type ClientCreateInput = typeof ClientCreateBody.static
export type ClientUpdateInput = typeof ClientUpdateBody.static
