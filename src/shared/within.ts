// A promise bounded in time: past `ms`, the answer is `late()` (or its throw) and the slow promise is left behind.
export function within<T>(p: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const limit = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late())
      } catch (e) {
        reject(e)
      }
    }, ms)
  })
  return Promise.race([p, limit]).finally(() => clearTimeout(timer))
}
