// Payments per second through the API with the journal (this checkout's binary) and without it (the binary built
// from the commit before the journal), measured in one run: bench/payments.ts on each, alternating, twice.
//
//   bun bench/journal-payments.ts [--no-build] [--base COMMIT] [--duration 10] [--runs 2]
//
// Target (issue 30): API Payments/s with the journal >= 0.9 x without.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { argNumber, argValue } from './args'
import { mustRun, run } from './processes'

const ROOT = resolve(import.meta.dir, '..')
/** The commit this branch started from, before the journal (9c488d5: "Dependencies for this round's features"). */
const BASE = argValue('base') ?? '9c488d5'
const duration = argNumber('duration', 10)
const runs = argNumber('runs', 2)
const TARGET = 0.9

async function main(): Promise<void> {
  const bun = process.execPath
  if (!process.argv.includes('--no-build')) await mustRun([bun, 'scripts/build.ts'], { cwd: ROOT, timeoutMs: 300_000 })
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-journal-base-'))
  try {
    // The base commit's tree beside this one, with the same node_modules, built as this one is.
    await mustRun(['sh', '-c', `git -C "${ROOT}" archive ${BASE} | tar -x -C "${dir}"`], { timeoutMs: 60_000 })
    symlinkSync(resolve(ROOT, 'node_modules'), join(dir, 'node_modules'))
    await mustRun([bun, 'scripts/build.ts'], { cwd: dir, timeoutMs: 300_000 })
    const binaries = { journal: join(ROOT, 'dist/invoicing'), without: join(dir, 'dist/invoicing') }
    for (const b of Object.values(binaries)) if (!existsSync(b)) throw new Error(`${b} is missing`)
    const rps: Record<keyof typeof binaries, number[]> = { journal: [], without: [] }
    for (let i = 0; i < runs; i++) {
      for (const name of (i % 2 === 0 ? ['without', 'journal'] : ['journal', 'without']) as (keyof typeof binaries)[]) {
        const json = join(dir, `${name}-${i}.json`)
        // payments.ts exits 1 when its own counts disagree (on a loaded machine, more than one Payment per connection
        // committed after wrk hung up); its figures are written first and shown here with those problems.
        const out = await run(
          [
            bun,
            join(import.meta.dir, 'payments.ts'),
            '--bin',
            binaries[name],
            '--duration',
            String(duration),
            '--json',
            json,
          ],
          { cwd: ROOT, timeoutMs: (duration * 6 + 120) * 1000 },
        )
        if (!existsSync(json))
          throw new Error(`payments.ts wrote no figures: ${out.stderr.trim() || out.stdout.trim()}`)
        const r = JSON.parse(readFileSync(json, 'utf8')) as { apiRps: number; directTps: number; apiProblems: string[] }
        if (r.apiProblems.length) console.log(`  (payments.ts sanity: ${r.apiProblems.join('; ')})`)
        rps[name].push(r.apiRps)
        console.log(
          `run ${i + 1} ${name.padEnd(8)} API ${Math.round(r.apiRps)} payments/s (direct ${Math.round(r.directTps)} tx/s)`,
        )
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
    const ratio = mean(rps.journal) / mean(rps.without)
    console.log(`\n| binary | API Payments/s (mean of ${runs}) | runs |`)
    console.log('| --- | ---: | --- |')
    console.log(
      `| without the journal (${BASE}) | ${Math.round(mean(rps.without))} | ${rps.without.map(Math.round).join(', ')} |`,
    )
    console.log(`| with the journal | ${Math.round(mean(rps.journal))} | ${rps.journal.map(Math.round).join(', ')} |`)
    console.log(`\n${ratio >= TARGET ? 'PASS' : 'FAIL'} with / without = ${ratio.toFixed(2)} (target >= ${TARGET})`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
