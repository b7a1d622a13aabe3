// Sample documents for the sandbox, made through the API itself so they are exactly what a client would get.
import type { App } from '../app'

type Call = (method: string, path: string, body?: unknown) => Promise<any>

function caller(app: App, key: string): Call {
  return async (method, path, body) => {
    const res = await app.fetch(
      new Request(`http://sandbox.local${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
    )
    const text = await res.text()
    if (res.status >= 300)
      throw new Error(`sandbox seeding: ${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`)
    return text ? JSON.parse(text) : null
  }
}

/** Products, and documents in every status: Draft, issued, partially paid, paid, cancelled, a converted Proforma, a Credit Note, a Quote. */
export async function seedSandboxDocuments(app: App, key: string, today: string): Promise<void> {
  const call = caller(app, key)
  const clients = (await call('GET', '/v1/clients?limit=10')).data as Array<{ id: number }>
  const [acme, blue, north] = clients.map((c) => c.id)
  const hosting = await call('POST', '/v1/products', {
    name: 'Hosting (monthly)',
    type: 'service',
    price: '49.00',
    currency: 'EUR',
    vat_rate: '19',
    unit: 'month',
  })
  const widget = await call('POST', '/v1/products', {
    name: 'Widget',
    type: 'product',
    price: '119.00',
    currency: 'EUR',
    vat_rate: '19',
    vat_included: true,
    sku: 'W-1',
  })
  const consulting = { description: 'Consulting', quantity: '6', unit: 'hour', unit_price: '95.00', vat_rate: '19' }

  const draft = (type: string, client: number, lines: unknown[]) =>
    call('POST', '/v1/documents', { type, client_id: client, lines })
  const issued = async (type: string, client: number, lines: unknown[]) =>
    call('POST', `/v1/documents/${(await draft(type, client, lines)).id}/issue`)
  const pay = (id: number, amount: string) =>
    call('POST', `/v1/documents/${id}/payments`, { amount, payment_date: today, payment_method: 'cash' })

  await draft('invoice', acme!, [{ product_id: hosting.id, quantity: '12' }])
  await issued('invoice', acme!, [consulting])
  const partly = await issued('invoice', blue!, [{ product_id: widget.id, quantity: '3' }, consulting])
  await pay(partly.id, '100.00')
  const settled = await issued('invoice', north!, [{ product_id: hosting.id, quantity: '1' }])
  await pay(settled.id, settled.total)
  const cancelled = await issued('invoice', blue!, [
    { description: 'Set-up fee', quantity: '1', unit_price: '250.00', vat_rate: '19' },
  ])
  await call('POST', `/v1/documents/${cancelled.id}/cancel`)
  const proforma = await issued('proforma', north!, [consulting])
  await pay(proforma.id, '200.00')
  const invoice = await call('POST', `/v1/documents/${proforma.id}/convert`)
  await call('POST', '/v1/documents', {
    type: 'credit_note',
    client_id: north,
    credited_document_id: invoice.id,
    lines: [{ description: 'Goodwill discount', quantity: '1', unit_price: '50.00', vat_rate: '19' }],
  }).then((cn) => call('POST', `/v1/documents/${cn.id}/issue`))
  await issued('quote', acme!, [{ product_id: widget.id, quantity: '10' }])
}
