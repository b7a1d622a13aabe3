// How far the JavaScript heap may grow past what it holds live before a full collection, for a serving process.
//
// JavaScriptCore sizes its heap by the machine: on one with 16 GB of memory or more it lets the heap reach about four
// times what the last full collection left live (its "aggressive" growth, heapGrowthMaxIncrease 3). Under the soak's
// eight workers that is 28 MB live and 111 MB of heap, which with the binary's code made a peak RSS of 250-260 MB.
// At 0.6 the heap may reach 1.6 times live: measured in bench/soak.ts, peak RSS 196 MB against 251, for about 5%
// fewer requests a second (bench/README.md). Machines with less memory never use this factor (JavaScriptCore grows
// their heap at most twice live), so the setting only brings large machines into line with small ones.
//
// JavaScriptCore reads its options once, from the environment, before any JavaScript runs: the only way a process can
// set one for itself is to start again with it. execve keeps the process id, the open files and the arguments, so a
// supervisor, a shell's `&` or a test that spawned the server sees one process throughout.

/** The option, in the spelling Bun reads (BUN_JSC_ and the option's name); an operator's own value is kept. */
export const HEAP_GROWTH_VARIABLE = 'BUN_JSC_heapGrowthMaxIncrease'
export const HEAP_GROWTH = '0.6'

/** The commands that serve until stopped: only these run long enough, and under load, for the heap's growth to matter. */
const SERVING = new Set(['serve', 'sandbox'])

export interface Restart {
  file: string
  args: string[]
  env: Record<string, string | undefined>
}

/**
 * How to start this process again under the heap growth, or null when it already runs under one (the restarted
 * process itself, or an operator's own value) or the command does not serve.
 */
export function heapGrowthRestart(p: { execPath: string; argv: string[]; execArgv: string[]; env: Record<string, string | undefined> }): Restart | null {
  const command = p.argv[2]
  if (!command || !SERVING.has(command) || p.env[HEAP_GROWTH_VARIABLE] !== undefined) return null
  // A compiled binary is its own program (argv[1] is its bundled entry, /$bunfs/...); from source, bun is started
  // again on the same script with the same runtime flags.
  const compiled = p.argv[1]?.startsWith('/$bunfs/') ?? false
  const args = compiled ? [p.execPath, ...p.argv.slice(2)] : [p.execPath, ...p.execArgv, p.argv[1]!, ...p.argv.slice(2)]
  return { file: p.execPath, args, env: { ...p.env, [HEAP_GROWTH_VARIABLE]: HEAP_GROWTH } }
}

/** Starts this process again under the heap growth when it serves; returns only when it does not (or cannot). */
export function restartUnderHeapGrowth(): void {
  const r = heapGrowthRestart({ execPath: process.execPath, argv: process.argv, execArgv: process.execArgv, env: process.env })
  if (!r) return
  try {
    process.execve!(r.file, r.args, r.env as NodeJS.ProcessEnv)
  } catch {
    // execve refused (a system without it): the server runs with JavaScriptCore's own growth, as it did before.
  }
}
