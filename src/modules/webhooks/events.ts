// The catalogue of webhook events and what each message carries.
export const EVENT_TYPES = [
  'document.issued',
  'document.sent',
  'document.viewed',
  'document.paid',
  'document.cancelled',
  'document.reminded',
  'payment.recorded',
  'payment.reversed',
  'refund.recorded',
  'refund.reversed',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

export type SubjectKind = 'document' | 'payment' | 'refund'

export function subjectOf(type: EventType): SubjectKind {
  return type.startsWith('payment.') ? 'payment' : type.startsWith('refund.') ? 'refund' : 'document'
}
