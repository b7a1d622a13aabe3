// The rate count of a local database file: a small table in a memory-mapped side file (`<db>.rate`) that every
// process on the file maps shared, changed under one lock word taken with Atomics (a compare-and-swap on shared
// memory is atomic across processes, as it is across threads).
//
// Why not SQLite: an UPSERT per request in a WAL side file cost 15-25 µs of the only JavaScript thread, the largest
// single cost of an authenticated read; here a hit costs well under a microsecond and still holds across processes
// and restarts (the kernel keeps the mapped pages and writes them back). A power cut may forgive the counts of the
// last moments, which §12 allows; a crash of the process or a restart forgives none.
//
// Layout (little-endian as the machine is): a 64-byte header — magic, version, slot count, lock word — then SLOTS
// slots of 32 bytes: used flag, two 32-bit hashes of the key, count, window start (float64 ms). Open addressing with
// linear probing; a slot whose window has ended is reused for a new key, and never emptied, so a probe chain is never
// cut (a key found further along always wins over a reused slot).
import {
  chmodSync,
  closeSync,
  existsSync,
  linkSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { decide, type RateCount } from './rate-count'

const MAGIC_0 = 0x52564e49 // "INVR"
const MAGIC_1 = 0x31455441 // "ATE1"
const VERSION = 1
const HEADER_BYTES = 64
const SLOT_BYTES = 32
/** Keys with a window open at once before a live slot is taken over: far above the keys one Business file serves. */
export const SLOTS = 16_384
const FILE_BYTES = HEADER_BYTES + SLOTS * SLOT_BYTES

// Header words (Int32 index).
const H_MAGIC_0 = 0
const H_MAGIC_1 = 1
const H_VERSION = 2
const H_SLOTS = 3
const H_LOCK = 4
// Slot words (Int32 index within a slot), and the float64 index of the window start.
const S_USED = 0
const S_H1 = 1
const S_H2 = 2
const S_COUNT = 3
const S_START_F64 = 2 // bytes 16..23 of the slot

/** After this long the lock's holder is asked whether it still lives (a hit holds the lock for about a microsecond). */
const STALE_LOCK_MS = 50
/** After this long the lock is taken whatever the holder's pid says. */
const GIVE_UP_MS = 5000

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: it lives, under another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function freshImage(): Uint8Array {
  const buf = new Uint8Array(FILE_BYTES)
  const words = new Int32Array(buf.buffer, 0, HEADER_BYTES / 4)
  words[H_MAGIC_0] = MAGIC_0
  words[H_MAGIC_1] = MAGIC_1
  words[H_VERSION] = VERSION
  words[H_SLOTS] = SLOTS
  return buf
}

function isValid(path: string): boolean {
  if (statSync(path).size !== FILE_BYTES) return false
  const head = new Int32Array(Bun.mmap(path, { size: HEADER_BYTES }).slice().buffer)
  return (
    head[H_MAGIC_0] === MAGIC_0 && head[H_MAGIC_1] === MAGIC_1 && head[H_VERSION] === VERSION && head[H_SLOTS] === SLOTS
  )
}

/**
 * The side file, made whole before any process maps it: a new one is written aside and linked into place (two
 * processes starting at once: one link wins, the other finds it); one found damaged (or left by the SQLite count of
 * earlier versions) is replaced, since it holds nothing but counts of the last minute.
 */
function prepareFile(path: string): void {
  const found = existsSync(path)
  if (found) {
    chmodSync(path, 0o600)
    if (isValid(path)) return
  }
  const aside = `${path}.${process.pid}.new`
  writeFileSync(aside, freshImage(), { mode: 0o600 })
  try {
    // A new file only ever by link, which fails when another process linked its own first: both then map the same
    // file (a rename here would replace the one the other process already counts in). A damaged file is replaced.
    if (found) renameSync(aside, path)
    else linkSync(aside, path)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  } finally {
    rmSync(aside, { force: true })
  }
  // The SQLite count of earlier versions kept a WAL beside the file; nothing reads it now.
  for (const f of [`${path}-wal`, `${path}-shm`]) rmSync(f, { force: true })
}

export function openMapCount(path: string, limit: number, windowMs: number): RateCount {
  prepareFile(path)
  closeSync(openSync(path, 'r+')) // fails here, clearly, if the file cannot be written
  let map: Uint8Array | null = Bun.mmap(path, { shared: true })
  const words = new Int32Array(map.buffer, map.byteOffset, FILE_BYTES / 4)
  const starts = new Float64Array(map.buffer, map.byteOffset, FILE_BYTES / 8)
  const me = process.pid

  const lock = () => {
    let since = 0
    for (let spins = 0; ; spins++) {
      const held = Atomics.compareExchange(words, H_LOCK, 0, me)
      if (held === 0) return
      if ((spins & 1023) === 1023) {
        since ||= performance.now()
        // A holder descheduled on a busy machine may keep the lock for a while; only one that is gone (it died
        // inside its microsecond) has the lock taken from it. Past STALE_LOCK_MS the holder's pid is asked; past
        // GIVE_UP_MS (a pid from another namespace, never answering) it is taken anyway.
        const waited = performance.now() - since
        if (
          waited > STALE_LOCK_MS &&
          (waited > GIVE_UP_MS || !isAlive(held)) &&
          Atomics.compareExchange(words, H_LOCK, held, me) === held
        )
          return
      }
    }
  }
  const unlock = () => void Atomics.store(words, H_LOCK, 0)

  /** The slot of `key`: its own if it has one, else a slot to take (empty or with an ended window). Under the lock. */
  const slotOf = (h1: number, h2: number, nowMs: number): { at: number; found: boolean } => {
    const home = (h1 >>> 0) % SLOTS
    let free = -1
    for (let i = 0; i < SLOTS; i++) {
      const slot = (home + i) % SLOTS
      const w = HEADER_BYTES / 4 + slot * (SLOT_BYTES / 4)
      if (words[w + S_USED] === 0) return { at: free >= 0 ? free : w, found: false }
      if (words[w + S_H1] === h1 && words[w + S_H2] === h2) return { at: w, found: true }
      if (free < 0 && nowMs >= starts[w / 2 + S_START_F64]! + windowMs) free = w
    }
    // Every slot holds a live window (more than SLOTS keys within one window): the home slot's key is forgiven.
    return { at: free >= 0 ? free : HEADER_BYTES / 4 + home * (SLOT_BYTES / 4), found: false }
  }

  const hashes = (key: string): [number, number] => [Bun.hash.cityHash32(key) | 0, Bun.hash.murmur32v3(key) | 0]

  const count = (key: string, nowMs: number, counted: boolean) => {
    const [h1, h2] = hashes(key)
    lock()
    try {
      const { at, found } = slotOf(h1, h2, nowMs)
      const start = starts[at / 2 + S_START_F64]!
      const open = found && nowMs < start + windowMs
      if (!counted)
        return decide(
          limit,
          windowMs,
          nowMs,
          open ? { start_ms: start, count: words[at + S_COUNT]! } : undefined,
          false,
        )
      const row = open ? { start_ms: start, count: words[at + S_COUNT]! + 1 } : { start_ms: nowMs, count: 1 }
      words[at + S_USED] = 1
      words[at + S_H1] = h1
      words[at + S_H2] = h2
      words[at + S_COUNT] = row.count
      starts[at / 2 + S_START_F64] = row.start_ms
      return decide(limit, windowMs, nowMs, row, true)
    } finally {
      unlock()
    }
  }

  return {
    limit,
    hit: (key, nowMs) => count(key, nowMs, true),
    peek: (key, nowMs) => count(key, nowMs, false),
    // Ended windows are reused in place; nothing to drop.
    sweep: () => {},
    close: () => {
      // The mapping goes with the array (Bun unmaps it when collected); nothing is buffered.
      map = null
    },
  }
}
