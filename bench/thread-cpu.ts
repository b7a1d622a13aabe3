// The processor time of the calling thread (the JavaScript thread, which serves every request), in ms with
// nanosecond resolution: clock_gettime(CLOCK_THREAD_CPUTIME_ID) through bun:ffi. process.cpuUsage() counts every
// thread of the process: JavaScriptCore's compiler and collector threads add bursts to whichever request happens to
// be running, which made two medians of the very same PDF differ by up to 5% (bench/README.md). Null where libc or
// the clock is not there (not Linux): callers fall back to process.cpuUsage().
import { dlopen, FFIType, ptr } from 'bun:ffi'

const CLOCK_THREAD_CPUTIME_ID = 3

function open(): (() => number) | null {
  if (process.platform !== 'linux') return null
  try {
    const libc = dlopen('libc.so.6', { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } })
    const ts = new BigInt64Array(2)
    const at = ptr(ts)
    const read = () => {
      if (libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, at) !== 0) throw new Error('clock_gettime failed')
      return Number(ts[0]) * 1000 + Number(ts[1]) / 1e6
    }
    read()
    return read
  } catch {
    return null
  }
}

export const threadCpuMs: (() => number) | null = open()
