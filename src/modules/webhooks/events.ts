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
] as const
export type EventType = (typeof EVENT_TYPES)[number]

export function subjectOf(type: EventType): 'document' | 'payment' {
  return type.startsWith('payment.') ? 'payment' : 'document'
}
