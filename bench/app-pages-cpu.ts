// The CPU each page costs the server, this tree against the baseline, in one process: bench/app-pages.ts --cpu runs it
// on the two databases it seeded. Each tree's own app (its src/app.ts, its node_modules) is loaded side by side and
// asked every page in turn (A B, then B A) through app.fetch, and the process's CPU time is taken around each request:
// on a machine other work keeps busy, CPU time moves far less than time to first byte, so a few percent shows.
//
//   bun bench/app-pages-cpu.ts JOB_JSON     (JOB_JSON: {runs, trees: [{name, tree, db, pages: [[name, path, next]]}]})
import { signInCookie } from './app-sign-in'

interface Job {
  runs: number
  trees: { name: string; tree: string; db: string; pages: [string, string, boolean][] }[]
}
const job = JSON.parse(process.argv[2] ?? '') as Job
const WARM_UP = 10

/** A tree's app in this process, a person signed in: one request's CPU time in ms, and its HTML. */
async function openTree(tree: string, db: string) {
  const { loadConfig } = await import(`${tree}/src/config.ts`)
  const { createDeps } = await import(`${tree}/src/deps.ts`)
  const { silentLogger } = await import(`${tree}/src/shared/logger.ts`)
  const { buildApp } = await import(`${tree}/src/app.ts`)
  const deps = await createDeps(loadConfig({}, { dbPath: db, rateLimit: 1_000_000_000 }), { logger: silentLogger })
  const app = await buildApp(deps)
  const origin = 'http://127.0.0.1'
  const cookie = await signInCookie((req) => app.fetch(req), origin, tree)
  return async (path: string): Promise<{ cpu: number; html: string }> => {
    const c0 = process.cpuUsage()
    const res = await app.fetch(new Request(origin + path, { headers: { cookie } }))
    const html = await res.text()
    const c = process.cpuUsage(c0)
    if (res.status !== 200) throw new Error(`${tree} ${path} answered ${res.status}: ${html.slice(0, 300)}`)
    return { cpu: (c.user + c.system) / 1000, html }
  }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!
const trees = await Promise.all(job.trees.map(async (t) => ({ ...t, ask: await openTree(t.tree, t.db) })))
const [cur, base] = trees as [(typeof trees)[number], (typeof trees)[number] | undefined]
console.log(
  `CPU time per request (ms, in one process, ${job.runs} requests per page and tree after ${WARM_UP} warm-up, interleaved)`,
)
console.log(
  'page'.padEnd(32) +
    'current p25'.padStart(12) +
    'median'.padStart(8) +
    'baseline p25'.padStart(14) +
    'median'.padStart(8) +
    'ratio p25'.padStart(11),
)
for (let i = 0; i < cur.pages.length; i++) {
  const [name] = cur.pages[i]!
  const other = base?.pages.find(([n]) => n === name)
  const both = other ? [cur, base!] : [cur]
  const paths = await Promise.all(
    both.map(async (t) => {
      const [, path, next] = t.pages.find(([n]) => n === name)!
      if (!next) return path
      const href = /<a[^>]*href="([^"]*(?:after|cursor)=[^"]*)"[^>]*>\s*Next/i.exec((await t.ask(path)).html)?.[1]
      if (!href) throw new Error(`${t.name} ${path}: no next page link`)
      return href.replaceAll('&amp;', '&')
    }),
  )
  const cpu = both.map(() => [] as number[])
  for (let r = 0; r < WARM_UP + job.runs; r++) {
    const order = r % 2 ? [...both.keys()].reverse() : [...both.keys()]
    for (const k of order) {
      const { cpu: ms } = await both[k]!.ask(paths[k]!)
      if (r >= WARM_UP) cpu[k]!.push(ms)
    }
  }
  const [a, b] = cpu as [number[], number[] | undefined]
  console.log(
    name.padEnd(32) +
      quantile(a, 0.25).toFixed(3).padStart(12) +
      quantile(a, 0.5).toFixed(3).padStart(8) +
      (b
        ? quantile(b, 0.25).toFixed(3).padStart(14) +
          quantile(b, 0.5).toFixed(3).padStart(8) +
          (quantile(a, 0.25) / quantile(b, 0.25)).toFixed(2).padStart(11)
        : 'new page'.padStart(14)),
  )
}
process.exit(0)
