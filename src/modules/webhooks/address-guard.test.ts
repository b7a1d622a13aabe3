// SSRF rules for webhook addresses: every refused form is a 422 under `url` at entry (with private addresses not
// allowed), the name is resolved (a fake resolver here) and every address it resolves to must be public, and the
// check runs again at every delivery: a name that turns to 127.0.0.1 after entry is never connected to.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { makeHarness, type Harness } from '../../../test/harness'
import { FakeSender, httpSender } from '../../adapters/http'
import { deliveryContext } from '../../jobs/webhooks'
import { AddressRefused, checkAddress, checkUrlForm, isPublicAddress, type Resolver } from './address-guard'
import { deliverDue, dispatchOutbox } from './delivery'
import { issueForNewClient } from './webhooks.testkit'

describe('isPublicAddress', () => {
  const refused: Array<[string, string]> = [
    ['loopback', '127.0.0.1'],
    ['loopback, elsewhere in 127/8', '127.255.0.9'],
    ['IPv6 loopback', '::1'],
    ['private 10/8', '10.0.0.1'],
    ['private 172.16/12 (start)', '172.16.0.1'],
    ['private 172.16/12 (end)', '172.31.255.255'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['CGNAT 100.64/10', '100.64.0.1'],
    ['CGNAT 100.64/10 (end)', '100.127.255.255'],
    ['unique-local fc00::/7', 'fc00::1'],
    ['unique-local fd00::/8', 'fd12:3456::1'],
    ['IPv6 link-local', 'fe80::1'],
    ['multicast', '224.0.0.1'],
    ['IPv6 multicast', 'ff02::1'],
    ['reserved 240/4', '240.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['this network 0.0.0.0', '0.0.0.0'],
    ['IPv6 unspecified', '::'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['NAT64 64:ff9b::/96', '64:ff9b::a00:1'],
    ['NAT64 local-use 64:ff9b:1::/48', '64:ff9b:1::1'],
    ['6to4 2002::/16', '2002:a00:1::'],
    ['Teredo 2001::/32', '2001:0::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv4 documentation TEST-NET-1', '192.0.2.1'],
    ['IPv4 benchmarking', '198.18.0.1'],
    ['not an address at all', 'example.com'],
    ['empty', ''],
  ]
  test.each(refused)('refuses %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  const accepted: Array<[string, string]> = [
    ['public IPv4', '93.184.216.34'],
    ['public IPv4 just past 172.16/12', '172.32.0.1'],
    ['public IPv4 just past CGNAT', '100.128.0.1'],
    ['public IPv6', '2606:2800:220:1:248:1893:25c8:1946'],
    ['public IPv6 (2001:4860::/32)', '2001:4860:4860::8888'],
    ['IPv4-mapped public', '::ffff:93.184.216.34'],
  ]
  test.each(accepted)('accepts %s (%s)', (_name, address) => {
    expect(isPublicAddress(address)).toBe(true)
  })
})

describe('checkUrlForm and checkAddress', () => {
  const resolve: Resolver = async (host) => (host === 'hooks.example.com' ? ['93.184.216.34'] : ['127.0.0.1'])

  test('a public https name on the default port passes, and the address to connect to is the checked one', async () => {
    const r = await checkAddress('https://hooks.example.com/in?x=1', { allowPrivate: false, resolve })
    expect(r.address).toBe('93.184.216.34')
    expect(r.url.hostname).toBe('hooks.example.com')
    expect((await checkAddress('https://hooks.example.com:443/in', { allowPrivate: false, resolve })).address).toBe(
      '93.184.216.34',
    )
  })

  test('IP literals in disguise (decimal, hex, short forms) are refused as IP addresses', () => {
    for (const raw of [
      'https://2130706433/',
      'https://0x7f000001/',
      'https://127.1/',
      'https://0177.0.0.1/',
      'https://[::ffff:7f00:1]/',
    ]) {
      expect(() => checkUrlForm(raw, false)).toThrow(AddressRefused)
    }
  })

  test('a name that does not resolve is refused', async () => {
    const failing: Resolver = async () => {
      throw new Error('ENOTFOUND')
    }
    await expect(checkAddress('https://nowhere.example/', { allowPrivate: false, resolve: failing })).rejects.toThrow(
      AddressRefused,
    )
    await expect(
      checkAddress('https://nowhere.example/', { allowPrivate: false, resolve: async () => [] }),
    ).rejects.toThrow(AddressRefused)
  })

  test('a name that does not resolve and one that resolves to an internal address get the same words, naming no address', async () => {
    const message = async (resolve: Resolver) => {
      try {
        await checkAddress('https://db.corp.example/', { allowPrivate: false, resolve })
      } catch (e) {
        return (e as Error).message
      }
      return 'accepted'
    }
    const missing = await message(async () => {
      throw new Error('ENOTFOUND')
    })
    const internal = await message(async () => ['10.1.2.3'])
    expect(internal).toBe(missing)
    expect(internal).not.toContain('10.1.2.3')
  })

  test('with private addresses allowed (development), http and loopback pass', async () => {
    const r = await checkAddress('http://127.0.0.1:9999/hook', { allowPrivate: true, resolve })
    expect(r.address).toBe('127.0.0.1')
  })
})

// Host names of the fake DNS, each resolving to the address the test is about.
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'loopback.example.com': ['127.0.0.1'],
  'loopback6.example.com': ['::1'],
  'ten.example.com': ['10.0.0.1'],
  'one-seven-two.example.com': ['172.16.0.1'],
  'one-nine-two.example.com': ['192.168.1.1'],
  'metadata.example.com': ['169.254.169.254'],
  'cgnat.example.com': ['100.64.0.1'],
  'ula.example.com': ['fc00::1'],
  'multicast.example.com': ['224.0.0.1'],
  'reserved.example.com': ['240.0.0.1'],
  'zero.example.com': ['0.0.0.0'],
  'mapped-loopback.example.com': ['::ffff:127.0.0.1'],
  'mapped-private.example.com': ['::ffff:10.0.0.1'],
  'nat64.example.com': ['64:ff9b::a00:1'],
  'sixtofour.example.com': ['2002:a00:1::'],
  'teredo.example.com': ['2001:0::1'],
  // Every address must be public: one private among public ones is enough to refuse.
  'mixed.example.com': ['93.184.216.34', '10.0.0.1'],
}
const fakeDns: Resolver = async (host) => {
  const found = DNS[host.replace(/\.$/, '')]
  if (!found) throw new Error(`ENOTFOUND ${host}`)
  return found
}

describe('address rules at entry: 422 under url (private addresses not allowed)', () => {
  let h: Harness
  let key: string

  beforeAll(async () => {
    h = await makeHarness({ config: { webhookAllowPrivate: false }, overrides: { resolve: fakeDns } })
    key = (await h.business()).key
  })
  afterAll(() => h.close())
  beforeEach(() => h.clock.advance(61_000))

  async function expectRefused(url: string) {
    const r = await h.request('POST', '/v1/webhooks', { key, body: { url } })
    expect(r.status).toBe(422)
    expect(r.body.error.type).toBe('invalid_request')
    expect(Object.keys(r.body.error.errors)).toEqual(['url'])
    expect(r.body.error.errors.url[0]).toBeString()
    return r
  }

  const forms: Array<[string, string]> = [
    ['plain http', 'http://hooks.example.com/in'],
    ['https on port 8443', 'https://hooks.example.com:8443/in'],
    ['a user name and password', 'https://user:pass@hooks.example.com/in'],
    ['a user name alone', 'https://user@hooks.example.com/in'],
    ['a fragment', 'https://hooks.example.com/in#part'],
    ['an IPv4 literal', 'https://93.184.216.34/'],
    ['an IPv6 literal', 'https://[2606:2800:220:1:248:1893:25c8:1946]/'],
    ['a decimal IPv4 literal', 'https://2130706433/'],
    ['another scheme', 'ftp://hooks.example.com/in'],
    ['not an address', 'hooks.example.com/in'],
    ['a name that does not resolve', 'https://nowhere.example.com/in'],
  ]
  test.each(forms)('refuses %s: %s', async (_name, url) => {
    await expectRefused(url)
  })

  const resolving: Array<[string, string]> = [
    ['loopback 127.0.0.1', 'loopback.example.com'],
    ['loopback ::1', 'loopback6.example.com'],
    ['private 10/8', 'ten.example.com'],
    ['private 172.16/12', 'one-seven-two.example.com'],
    ['private 192.168/16', 'one-nine-two.example.com'],
    ['link-local 169.254.169.254', 'metadata.example.com'],
    ['CGNAT 100.64.0.1', 'cgnat.example.com'],
    ['unique-local fc00::1', 'ula.example.com'],
    ['multicast 224.0.0.1', 'multicast.example.com'],
    ['reserved 240.0.0.1', 'reserved.example.com'],
    ['0.0.0.0', 'zero.example.com'],
    ['IPv4-mapped ::ffff:127.0.0.1', 'mapped-loopback.example.com'],
    ['IPv4-mapped ::ffff:10.0.0.1', 'mapped-private.example.com'],
    ['NAT64 64:ff9b::a00:1', 'nat64.example.com'],
    ['6to4 2002:a00:1::', 'sixtofour.example.com'],
    ['Teredo 2001:0::1', 'teredo.example.com'],
    ['one public and one private address', 'mixed.example.com'],
  ]
  test.each(resolving)('refuses a host name resolving to %s', async (_name, host) => {
    await expectRefused(`https://${host}/in`)
    // A trailing dot changes nothing.
    await expectRefused(`https://${host}./in`)
  })

  test('nothing refused was saved', async () => {
    const r = await h.request('GET', '/v1/webhooks', { key })
    expect(r.body.data).toEqual([])
  })

  test('a public https name is accepted (201), on the default port written or not', async () => {
    const a = await h.request('POST', '/v1/webhooks', { key, body: { url: 'https://hooks.example.com/in' } })
    expect(a.status).toBe(201)
    const b = await h.request('POST', '/v1/webhooks', {
      key,
      body: { url: 'https://hooks.example.com:443/in?source=invoicing' },
    })
    expect(b.status).toBe(201)
  })

  test('PATCH checks a new url by the same rules, and a refused PATCH changes nothing', async () => {
    const a = await h.request('POST', '/v1/webhooks', { key, body: { url: 'https://hooks.example.com/patched' } })
    const r = await h.request('PATCH', `/v1/webhooks/${a.body.id}`, {
      key,
      body: { url: 'https://metadata.example.com/latest' },
    })
    expect(r.status).toBe(422)
    expect(Object.keys(r.body.error.errors)).toEqual(['url'])
    expect((await h.request('GET', `/v1/webhooks/${a.body.id}`, { key })).body.url).toBe(
      'https://hooks.example.com/patched',
    )
    const ok = await h.request('PATCH', `/v1/webhooks/${a.body.id}`, {
      key,
      body: { url: 'https://hooks.example.com/other' },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.url).toBe('https://hooks.example.com/other')
  })
})

describe('address rules at delivery', () => {
  let h: Harness
  let sender: FakeSender
  /** What the fake DNS answers for rebind.example.com right now. */
  let rebindTo: string[]

  beforeAll(async () => {
    sender = new FakeSender()
    rebindTo = ['93.184.216.34']
    const resolve: Resolver = async (host) => (host === 'rebind.example.com' ? rebindTo : fakeDns(host))
    h = await makeHarness({ config: { webhookAllowPrivate: false }, overrides: { sender, resolve } })
  })
  afterAll(() => h.close())
  beforeEach(() => {
    h.clock.advance(61_000)
    sender.requests.length = 0
  })

  test('a public name is connected to at the very address that was checked', async () => {
    const b = await h.business()
    rebindTo = ['93.184.216.34']
    const w = await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: 'https://rebind.example.com/in' } })
    expect(w.status).toBe(201)
    await issueForNewClient(h, b.key)
    const ctx = deliveryContext(h.deps)
    await dispatchOutbox(ctx)
    await deliverDue(ctx)
    expect(sender.requests).toHaveLength(1)
    expect(sender.requests[0]!.address).toBe('93.184.216.34')
    expect(sender.requests[0]!.url.hostname).toBe('rebind.example.com')
  })

  test('a name public at entry that resolves to 127.0.0.1 at delivery is never connected to; the attempt is a failure naming the host, not the internal address', async () => {
    const b = await h.business()
    rebindTo = ['93.184.216.34']
    const w = await h.request('POST', '/v1/webhooks', { key: b.key, body: { url: 'https://rebind.example.com/in' } })
    expect(w.status).toBe(201)
    rebindTo = ['127.0.0.1']
    await issueForNewClient(h, b.key)
    const ctx = deliveryContext(h.deps)
    await dispatchOutbox(ctx)
    expect(await deliverDue(ctx)).toBe(1)
    expect(sender.requests).toHaveLength(0)

    const list = await h.request('GET', `/v1/webhooks/${w.body.id}/deliveries`, { key: b.key })
    expect(list.status).toBe(200)
    const d = list.body.data[0]
    expect(d.status).toBe('pending')
    expect(d.attempts).toHaveLength(1)
    expect(d.attempts[0].status_code).toBeNull()
    expect(d.attempts[0].error).toContain('refused')
    expect(d.attempts[0].error).toContain('rebind.example.com')
    expect(d.attempts[0].error).not.toContain('127.0.0.1')

    // Every retry checks again: still refused, still nothing sent.
    h.clock.advance(10_000)
    expect(await deliverDue(ctx)).toBe(1)
    expect(sender.requests).toHaveLength(0)
    // Once the name is public again, the next attempt goes out to the public address.
    rebindTo = ['93.184.216.34']
    h.clock.advance(400_000)
    expect(await deliverDue(ctx)).toBe(1)
    expect(sender.requests.map((r) => r.address)).toEqual(['93.184.216.34'])
  })
})

describe('httpSender', () => {
  test('connects to the pinned address whatever the name would resolve to, keeping the name as Host', async () => {
    const got: string[] = []
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        got.push(req.headers.get('host') ?? '')
        return new Response('ok')
      },
    })
    try {
      // The name resolves nowhere; the connection still reaches the checked address.
      const r = await httpSender.post({
        url: new URL(`http://pinned.invalid:${server.port}/in`),
        address: '127.0.0.1',
        headers: {},
        body: '{}',
        timeoutMs: 5000,
      })
      expect(r.kind).toBe('answer')
      expect(got).toEqual([`pinned.invalid:${server.port}`])
      // A name that would resolve to the server is not followed when the pinned address is another one.
      const other = await httpSender.post({
        url: new URL(`http://localhost:${server.port}/in`),
        address: '127.0.0.2',
        headers: {},
        body: '{}',
        timeoutMs: 5000,
      })
      expect(other.kind).toBe('error')
      expect(got).toHaveLength(1)
    } finally {
      server.stop(true)
    }
  })
})
