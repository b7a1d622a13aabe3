// JavaScriptCore compiles a function to machine code once it has run often enough, on threads of its own. A command's
// start runs most of its code once (module bodies, the schema, the app's routes, the migrations check), so what those
// threads compile then is never used again, and on a small machine they take the processor the start itself needs:
// `serve` spent 20 ms of its 80 ms of processor time to its first answer on them. Bun lets a process scale the counts
// at which code tiers up (Bun.unsafe.setJITPolicy); the CLI starts with them scaled and returns to the usual counts
// once the start is behind it, so that a serving process compiles its hot paths as before.

/** How many times more often a function runs during the start before it is compiled (1 is JavaScriptCore's own). */
const START_UP_SCALE = 8
/** How long after the process starts the usual counts come back: a server has answered its first requests by then. */
const START_UP_MS = 1000

/** Raises the tier-up counts for the start, and brings them back after it (without keeping a short command alive). */
export function compileLessWhileStarting(): void {
  Bun.unsafe.setJITPolicy(START_UP_SCALE)
  setTimeout(() => Bun.unsafe.setJITPolicy(1), START_UP_MS).unref()
}
