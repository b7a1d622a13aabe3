// The client's address: X-Forwarded-For is believed only from a trusted proxy, hop by hop, never from a client.
import { describe, expect, test } from 'bun:test'
import { makeHarness } from '../../test/harness'
import { loadConfig, ConfigError } from '../config'
import { clientAddress, parseProxyRange, trustedProxies } from './client-address'

const proxies = trustedProxies(['127.0.0.1', '10.0.0.0/8', 'fd00::/8'])

describe('clientAddress', () => {
  test('with no trusted proxy, or from a peer that is not one, the peer is the client and X-Forwarded-For is ignored', () => {
    expect(clientAddress('203.0.113.7', '198.51.100.1', trustedProxies([]))).toBe('203.0.113.7')
    expect(clientAddress('203.0.113.7', '198.51.100.1', proxies)).toBe('203.0.113.7')
    expect(clientAddress('10.1.2.3', null, proxies)).toBe('10.1.2.3')
    expect(clientAddress(null, '198.51.100.1', proxies)).toBeNull()
  })

  test('behind a trusted proxy the client is the hop it appended; a client-sent hop to its left is not believed', () => {
    expect(clientAddress('10.0.0.2', '198.51.100.1', proxies)).toBe('198.51.100.1')
    // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy appended what it saw.
    expect(clientAddress('10.0.0.2', '1.2.3.4, 198.51.100.1', proxies)).toBe('198.51.100.1')
  })

  test('a chain of trusted proxies is walked back to the first address none of them is', () => {
    expect(clientAddress('127.0.0.1', '1.2.3.4, 198.51.100.1, 10.9.9.9', proxies)).toBe('198.51.100.1')
    expect(clientAddress('fd00::1', '2001:db8::5', proxies)).toBe('2001:db8::5')
    // Every hop trusted: the farthest is the client.
    expect(clientAddress('127.0.0.1', '10.0.0.7, 10.0.0.8', proxies)).toBe('10.0.0.7')
  })

  test('an IPv4 peer seen as IPv6 (::ffff:a.b.c.d) is matched as IPv4; a hop that is not an address stops at the last trusted one', () => {
    expect(clientAddress('::ffff:10.0.0.2', '198.51.100.1', proxies)).toBe('198.51.100.1')
    expect(clientAddress('10.0.0.2', 'unknown', proxies)).toBe('10.0.0.2')
    expect(clientAddress('10.0.0.2', '198.51.100.1, garbage', proxies)).toBe('10.0.0.2')
  })
})

test('INVOICING_TRUSTED_PROXIES takes addresses and CIDR ranges; anything else refuses to start with one line naming it', () => {
  expect(loadConfig({ INVOICING_TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8 ,::1' }).trustedProxies).toEqual([
    '127.0.0.1',
    '10.0.0.0/8',
    '::1',
  ])
  expect(loadConfig({}).trustedProxies).toEqual([])
  for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1:8080']) {
    expect(parseProxyRange(bad)).toBeNull()
    expect(() => loadConfig({ INVOICING_TRUSTED_PROXIES: `127.0.0.1,${bad}` })).toThrow(ConfigError)
    expect(() => loadConfig({ INVOICING_TRUSTED_PROXIES: bad })).toThrow(`not "${bad}"`)
  }
})

test('behind a trusted proxy each client has its own registration limit and the request log names it; a client cannot choose its address', async () => {
  const h = await makeHarness({ config: { publicUrl: 'https://invoices.example', trustedProxies: ['10.0.0.2'] } })
  try {
    const register = (peer: string, forwardedFor: string) =>
      h.app.fetch(
        new Request('https://invoices.example/oauth/register', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
          body: JSON.stringify({ redirect_uris: ['https://app.example/callback'], client_name: 'Flood' }),
        }),
        { requestIP: () => ({ address: peer }) },
      )
    for (let i = 0; i < 20; i++) expect((await register('10.0.0.2', '203.0.113.9')).status).toBe(201)
    expect((await register('10.0.0.2', '203.0.113.9')).status).toBe(429)
    // Another client behind the same proxy is not held by the first one's limit.
    expect((await register('10.0.0.2', '198.51.100.4')).status).toBe(201)
    // A client reaching the service directly cannot claim another address to escape its own limit.
    for (let i = 0; i < 20; i++) expect((await register('192.0.2.77', `192.0.2.${i}`)).status).toBe(201)
    expect((await register('192.0.2.77', '192.0.2.200')).status).toBe(429)

    // The request log keeps the client's address, not the proxy's.
    const b = await h.business()
    const res = await h.app.fetch(
      new Request('http://localhost/v1/business', {
        headers: { authorization: `Bearer ${b.key}`, 'x-forwarded-for': '203.0.113.44' },
      }),
      {
        requestIP: () => ({ address: '10.0.0.2' }),
      },
    )
    expect(res.status).toBe(200)
    await h.app.requestLog.flush()
    const log = await h.request('GET', '/v1/request-log', { key: b.key })
    expect(log.body.data.map((e: { ip: string | null }) => e.ip)).toContain('203.0.113.44')
  } finally {
    await h.close()
  }
})
