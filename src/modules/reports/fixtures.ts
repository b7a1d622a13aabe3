// Test-only helpers for the reports' tests: Clients, documents and Payments made through the API, as a caller would.
import { expect } from 'bun:test'
import type { Harness, TestResponse } from '../../../test/harness'

export interface LineSpec {
  description?: string
  quantity?: string
  unit_price: string
  vat_rate?: string
  vat_category?: string
  vat_exemption_code?: string
}

export interface DocSpec {
  type?: 'invoice' | 'proforma' | 'credit_note' | 'quote'
  client_id: number
  currency?: string
  issue_date?: string
  due_date?: string
  lines: LineSpec[]
  credited_document_id?: number
  /** Extensions §16: the rate fixed at issue for a document in another currency. */
  exchange_rate?: string
}

function ok(r: TestResponse, status: number, what: string): any {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`)
  return r.body
}

export class Api {
  constructor(
    readonly h: Harness,
    readonly key: string,
  ) {}

  async client(name: string, extra: Record<string, unknown> = {}): Promise<number> {
    return ok(
      await this.h.request('POST', '/v1/clients', {
        key: this.key,
        body: { name, email: 'billing@example.com', country: 'DE', ...extra },
      }),
      201,
      'client',
    ).id
  }

  async draft(spec: DocSpec): Promise<any> {
    const body = {
      type: spec.type ?? 'invoice',
      ...spec,
      lines: spec.lines.map((l) => ({ description: 'Work', quantity: '1', vat_rate: '0', ...l })),
    }
    return ok(await this.h.request('POST', '/v1/documents', { key: this.key, body }), 201, 'create document')
  }

  async issue(id: number): Promise<any> {
    return ok(await this.h.request('POST', `/v1/documents/${id}/issue`, { key: this.key }), 200, 'issue')
  }

  /** A document created and issued. */
  async doc(spec: DocSpec): Promise<any> {
    return this.issue((await this.draft(spec)).id)
  }

  /** An Invoice for the Client, created and issued on the day, with its Lines and whatever else `extra` sets. */
  invoice(client_id: number, issue_date: string, lines: LineSpec[], extra: Partial<DocSpec> = {}): Promise<any> {
    return this.doc({ client_id, issue_date, lines, ...extra })
  }

  /** A Proforma for the Client, created and issued on the day, with its Lines and whatever else `extra` sets. */
  proforma(client_id: number, issue_date: string, lines: LineSpec[], extra: Partial<DocSpec> = {}): Promise<any> {
    return this.doc({ type: 'proforma', client_id, issue_date, lines, ...extra })
  }

  /** A Credit Note on an issued document, for its Client and in its currency, created and issued on the day. */
  creditNote(
    credited: { id: number; client_id: number; currency: string },
    issue_date: string,
    lines: LineSpec[],
    extra: Partial<DocSpec> = {},
  ): Promise<any> {
    return this.doc({
      type: 'credit_note',
      client_id: credited.client_id,
      currency: credited.currency,
      credited_document_id: credited.id,
      issue_date,
      lines,
      ...extra,
    })
  }

  async cancel(id: number): Promise<any> {
    return ok(await this.h.request('POST', `/v1/documents/${id}/cancel`, { key: this.key }), 200, 'cancel')
  }

  /** Converts a Proforma on the given day (the Invoice is issued that day); the clock is put back after. */
  async convert(id: number, day: string): Promise<any> {
    const before = this.h.clock.now()
    this.h.clock.set(`${day}T10:00:00.000Z`)
    try {
      return ok(await this.h.request('POST', `/v1/documents/${id}/convert`, { key: this.key }), 201, 'convert')
    } finally {
      this.h.clock.set(before)
    }
  }

  async pay(documentId: number, amount: string, payment_date: string, reference?: string): Promise<any> {
    const body: Record<string, unknown> = { amount, payment_date, payment_method: 'cash' }
    if (reference) body.reference = reference
    return ok(
      await this.h.request('POST', `/v1/documents/${documentId}/payments`, { key: this.key, body }),
      201,
      'payment',
    )
  }

  async reverse(paymentId: number): Promise<any> {
    return ok(await this.h.request('POST', `/v1/payments/${paymentId}/reverse`, { key: this.key }), 200, 'reverse')
  }

  async get(path: string): Promise<TestResponse> {
    return this.h.request('GET', path, { key: this.key })
  }

  /** A report answered 200. */
  async report(path: string): Promise<any> {
    return ok(await this.get(path), 200, path)
  }

  /** Every document of the Business, through the list's pages. */
  async allDocuments(): Promise<any[]> {
    const out: any[] = []
    let cursor: string | null = null
    do {
      const q = new URLSearchParams({ limit: '100' })
      if (cursor) q.set('cursor', cursor)
      const page = ok(await this.get(`/v1/documents?${q}`), 200, 'list documents')
      out.push(...page.data)
      cursor = page.next_cursor
    } while (cursor)
    return out
  }
}

/** Expects a 422 invalid_request whose errors name exactly these fields. */
export function expectInvalid(r: TestResponse, ...fields: string[]): void {
  expect(r.status).toBe(422)
  expect(r.body.error.type).toBe('invalid_request')
  expect(Object.keys(r.body.error.errors).sort()).toEqual([...fields].sort())
}
