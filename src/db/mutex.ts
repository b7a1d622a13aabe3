// A FIFO async mutex: libSQL write transactions must never overlap within the process (SQLITE_BUSY otherwise).

export class Mutex {
  private tail: Promise<unknown> = Promise.resolve()

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn)
    // The chain continues whether fn succeeds or fails; the caller still sees fn's own outcome.
    this.tail = result.catch(() => undefined)
    return result
  }
}
