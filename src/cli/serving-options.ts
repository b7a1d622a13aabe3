// The runtime options a serving process runs under: JavaScriptCore's and its allocator's, bounding its memory.
//
// JavaScriptCore sizes its heap by the machine: on one with 16 GB of memory or more it lets the heap reach about four
// times what the last full collection left live (its "aggressive" growth, heapGrowthMaxIncrease 3). Under the soak's
// eight workers that was 28 MB live and 111 MB of heap, and a peak RSS of 250-260 MB. At 0.6 the heap reaches at most
// 1.6 times live; machines with less memory never use this factor (their heap grows at most twice live), so it only
// brings large machines into line with small ones. Lower is not better: at 0.4 nearly every collection becomes a full
// one (JavaScriptCore collects in full once less than a third of the heap is left for new objects), and bench/run.ts's
// creates fell to 0.52 of the baseline insert (target 0.6). Measured with both options below (and the hot reads of
// db/hot-shape.ts): the 9-minute soak's peak RSS 186 MB in place of 263 (bench/README.md has each step).
//
// Bun's allocator (its fork of mimalloc, which holds JavaScriptCore's heap and every other allocation of the runtime)
// hands back the free memory inside pages still in use when a thread falls idle ("hole purging"), but keeps up to
// 4 MiB of free blocks in its large pages resident until 256 sweeps have passed without an allocation from them, so
// that a busy server does not give back and fault in the same memory again and again. A server its jobs wake every
// second is swept about once a second, so those 4 MiB stayed for minutes, and the soak's idle reading (bench/soak.ts,
// 30 s after the load) found them still held. After 8 sweeps they go (seconds of idle; under load a thread is swept at
// most every 100 ms, and a page allocated from does not age): in the soaks the allocator's arena held 29-30 MiB at
// idle in place of 32 (bench/README.md has the figures).
//
// JavaScriptCore and mimalloc read their options once, from the environment, before any JavaScript runs: the only way
// a process can set one for itself is to start again with it. execve keeps the process id, the open files and the
// arguments, so a supervisor, a shell's `&` or a test that spawned the server sees one process throughout. Option
// names are Bun's (WebKit's, prefixed BUN_JSC_, and its mimalloc's, prefixed MIMALLOC_), pinned with Bun's version:
// src/cli/serving-options.test.ts starts a real server under them (and has mimalloc say which value it read), so a
// Bun that no longer knows one fails the tests rather than going unnoticed.
import { parseArgs } from './args'

/**
 * The options, in the spelling Bun reads (BUN_JSC_ or MIMALLOC_ and the option's name). heapGrowthMaxIncrease bounds
 * the heap's growth; useFTLJIT=false leaves out JavaScriptCore's last optimising tier, whose compilations and code were
 * about 25 MB of the soak's peak for about 8% of its requests a second (the DFG tier still optimises hot code);
 * purge_holes_large_floor_epochs is how many idle sweeps the allocator keeps free large-page memory for (256 its own).
 */
export const SERVING_OPTIONS: Readonly<Record<string, string>> = {
  BUN_JSC_heapGrowthMaxIncrease: '0.6',
  BUN_JSC_useFTLJIT: 'false',
  MIMALLOC_PURGE_HOLES_LARGE_FLOOR_EPOCHS: '8',
}

/** The commands that serve until stopped: only these run long enough, and under load, for the heap's growth to matter. */
const SERVING = new Set(['serve', 'sandbox'])

/** The command the CLI will run, read as cli/run.ts reads it (`serve` when none is named); null for help and version. */
function commandOf(argv: string[]): string | null {
  try {
    const a = parseArgs(argv)
    return a.flags.has('help') || a.flags.has('version') ? null : (a.words[0] ?? 'serve')
  } catch {
    // A command line the CLI will refuse: it is refused once, without a restart.
    return null
  }
}

export interface Restart {
  file: string
  args: string[]
  env: Record<string, string | undefined>
}

/**
 * How to start this process again under the serving options, or null when it already runs under them (the restarted
 * process itself, or an operator's own values) or the command does not serve.
 */
export function servingRestart(p: {
  execPath: string
  argv: string[]
  execArgv: string[]
  env: Record<string, string | undefined>
}): Restart | null {
  const command = commandOf(p.argv.slice(2))
  // An option the environment already names is the operator's (or this restart's own): it is kept as it is.
  const missing = Object.entries(SERVING_OPTIONS).filter(([k]) => p.env[k] === undefined)
  if (!command || !SERVING.has(command) || missing.length === 0) return null
  // A compiled binary is its own program (argv[1] is its bundled entry, /$bunfs/...); from source, bun is started
  // again on the same script with the same runtime flags.
  const compiled = p.argv[1]?.startsWith('/$bunfs/') ?? false
  const args = compiled ? [p.execPath, ...p.argv.slice(2)] : [p.execPath, ...p.execArgv, p.argv[1]!, ...p.argv.slice(2)]
  return { file: p.execPath, args, env: { ...p.env, ...Object.fromEntries(missing) } }
}

/** Starts this process again under the serving options when it serves; returns only when it does not (or cannot). */
export function restartWithServingOptions(): void {
  const r = servingRestart({
    execPath: process.execPath,
    argv: process.argv,
    execArgv: process.execArgv,
    env: process.env,
  })
  if (!r) return
  try {
    process.execve!(r.file, r.args, r.env as NodeJS.ProcessEnv)
  } catch {
    // execve refused (a system without it): the server runs under JavaScriptCore's own settings.
  }
}
