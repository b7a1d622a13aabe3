// The CLI as an operator runs it, through the real entry point from source, on a test harness's own database file.
import type { Harness } from './harness'
import { ROOT } from './processes'

export interface CliRun {
  code: number | null
  out: string
  /** stderr, trimmed. */
  err: string
  /** stdout parsed as JSON. */
  json(): any
}

/**
 * Runs `invoicing ARGS --db FILE --json` to its end, FILE the harness's database (`json: false` leaves --json off),
 * with this process's environment but INVOICING_DB emptied, and `env` on top.
 */
export function cliOnHarness(
  h: Harness,
  args: string[],
  opts: { env?: Record<string, string>; json?: boolean } = {},
): CliRun {
  const flags = ['--db', h.deps.config.dbPath, ...(opts.json === false ? [] : ['--json'])]
  const p = Bun.spawnSync(['./node_modules/.bin/bun', 'src/main.ts', ...args, ...flags], {
    cwd: ROOT,
    env: { ...process.env, INVOICING_DB: '', ...opts.env },
  })
  const out = p.stdout.toString()
  return { code: p.exitCode, out, err: p.stderr.toString().trim(), json: () => JSON.parse(out) }
}

/** The arguments of `invoicing business create` for a Business of Germany in EUR under `name`, and any more flags. */
export function createGermanBusiness(name: string, ...flags: string[]): string[] {
  return ['business', 'create', '--name', name, '--country', 'DE', '--currency', 'EUR', ...flags]
}
