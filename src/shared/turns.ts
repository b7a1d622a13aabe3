// Long work that lets the event loop turn: the one place for why and how a loop yields.
//
// Two reasons, both measured. The libSQL and bun:sqlite drivers run a statement synchronously, so a loop over many
// rows holds the thread: requests wait for its end. And the drivers' statements and rows are native objects whose
// memory is handed back only when the event loop turns (their finalizers run between turns, not between the
// microtasks of one chain of awaits): the recurring invoices' task, making 1,000 Invoices in one run without a turn,
// held 0.7 MB of native memory per Invoice until the run ended (800 MB RSS); with a turn after each, 120 MB.

/** Resolves on the event loop's next turn (after pending I/O and timers), not as a microtask of this chain. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * For loops of many short steps: `await slice()` after each step turns the event loop once `ms` have passed since the
 * last turn, so that others are let in without paying a turn per step.
 */
export function timeSlices(ms: number): () => Promise<void> {
  let since = performance.now()
  return async () => {
    if (performance.now() - since <= ms) return
    await nextTurn()
    since = performance.now()
  }
}
