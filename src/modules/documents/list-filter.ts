// The application's document list filter read from its query: the API's filters and `search`, each left out when it
// cannot be read (a list page shows everything rather than refusing a hand-edited address).
import { isDate } from '../../shared/dates'
import { documentStatuses, documentTypes } from '../../db/schema'
import type { DocumentFilter } from './documents.repo'

export function documentFilterOf(q: Record<string, string | undefined>): DocumentFilter {
  const pick = <T extends string>(v: string | undefined, allowed: readonly T[]) =>
    v && (allowed as readonly string[]).includes(v) ? (v as T) : undefined
  return {
    type: pick(q.type, documentTypes),
    status: pick(q.status, documentStatuses),
    clientId: /^[1-9][0-9]{0,14}$/.test(q.client_id ?? '') ? Number(q.client_id) : undefined,
    issueDateFrom: isDate(q.issue_date_from ?? '') ? q.issue_date_from : undefined,
    issueDateTo: isDate(q.issue_date_to ?? '') ? q.issue_date_to : undefined,
    search: q.search?.trim().slice(0, 200) || undefined,
  }
}
