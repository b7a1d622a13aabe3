// Connected-app token vs API key on the same API call (GET /v1/business), over HTTP with wrk, same server, same run:
// the token's lookup is one hashed read on the hot reader like the key's, so the ratio should be near 1 (target ≥ 0.9).
//   bun bench/connected-app.ts [--duration 5]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../src/config'
import { createDeps } from '../src/deps'
import { buildApp } from '../src/app'
import { createApiKey, createBusiness } from '../src/modules/business'
import { addMember, addPerson } from '../src/modules/people'
import { createApp, issueCode, s256 } from '../src/modules/oauth'
import { silentLogger } from '../src/shared/logger'
import { eq } from 'drizzle-orm'
import { oauthApps } from '../src/db/schema'

// Without --duration, indexOf is -1 and argv[0] (the bun binary's path) would be read as the duration: NaN.
const at = process.argv.indexOf('--duration')
const duration = at > 0 ? Number(process.argv[at + 1]) : 5
if (!Number.isFinite(duration) || duration <= 0) throw new Error('--duration takes a number of seconds')
const dir = mkdtempSync(join(tmpdir(), 'bench-oauth-'))
const issuer = 'http://localhost:8080'
const deps = await createDeps(
  loadConfig({}, { dbPath: join(dir, 'b.db'), rateLimit: 100_000_000, publicUrl: issuer }),
  { logger: silentLogger },
)
const app = await buildApp(deps)
const b = await createBusiness(deps.db, deps.clock, { name: 'Bench', country: 'DE', currency: 'EUR', plan: 'pro' })
const key = (await createApiKey(deps.db, deps.clock, b.id, { name: 'bench', role: 'admin' })).key
const { person } = await addPerson(deps, { email: 'bench@example.com', name: 'Bench' })
await addMember(deps, b.id, { email: 'bench@example.com', role: 'owner' })
const oapp = await createApp(deps.db, deps.clock, {
  ownerPersonId: person.id,
  name: 'Bench App',
  redirectUris: ['https://app.example/cb'],
  public: true,
})
const row = await deps.db.read.select().from(oauthApps).where(eq(oauthApps.clientId, oapp.client_id)).get()
const verifier = 'v'.repeat(50)
const code = await issueCode(deps.db, deps.clock, {
  appId: row!.id,
  businessId: b.id,
  personId: person.id,
  role: 'admin',
  redirectUri: 'https://app.example/cb',
  codeChallenge: s256(verifier),
  resources: [`${issuer}/v1`, `${issuer}/mcp`],
})
const t = await app.fetch(
  new Request(`${issuer}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: 'https://app.example/cb',
      client_id: oapp.client_id,
    }),
  }),
)
const token = ((await t.json()) as { access_token: string }).access_token
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req, s) => app.fetch(req, s) })
const url = `http://127.0.0.1:${server.port}/v1/business`

async function wrk(credential: string): Promise<number> {
  const p = Bun.spawn(
    ['wrk', '-t', '1', '-c', '16', '-d', `${duration}s`, '-H', `Authorization: Bearer ${credential}`, url],
    { stdout: 'pipe' },
  )
  const out = await new Response(p.stdout).text()
  const m = /Requests\/sec:\s+([\d.]+)/.exec(out)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)
  if (!m || non2xx) throw new Error(`wrk: ${out}`)
  return Number(m[1])
}

for (const c of [key, token])
  if ((await fetch(url, { headers: { authorization: `Bearer ${c}` } })).status !== 200)
    throw new Error('credential refused')
await wrk(key) // warm-up
const rounds: Array<{ key: number; token: number }> = []
for (let i = 0; i < 2; i++) rounds.push({ key: await wrk(key), token: await wrk(token) })
const k = Math.max(...rounds.map((r) => r.key))
const tk = Math.max(...rounds.map((r) => r.token))
console.log(
  JSON.stringify({
    rounds,
    best_key_rps: k,
    best_token_rps: tk,
    ratio: +(tk / k).toFixed(3),
    target: 0.9,
    pass: tk / k >= 0.9,
  }),
)
server.stop(true)
await app.connectionUsage.flush()
deps.db.close()
rmSync(dir, { recursive: true, force: true })
