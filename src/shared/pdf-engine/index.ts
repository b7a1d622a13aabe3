// The PDF engine: pdf-lib, fontkit and pako in a realm of their own (a node:vm context), started with the first PDF
// and let go when the server falls idle.
//
// Why a realm: once a module has run, its classes, tables and compiled code stay for the life of the process. After
// a stream of PDFs those of pdf-lib and fontkit were about 10 MB of an idle server's memory (bench/README.md) that no
// collection could reach. Loaded into a context of their own, everything they made belongs to that context's global
// object, and goes with it: the next PDF starts a new realm (about 80 ms).
//
// What crosses: the engine's API is called from the server's realm. pdf-lib tests its arguments with `instanceof`,
// which a Uint8Array, an array or a Date made in the server never passes: they go through the engine's `bytes`,
// `list` and `date` (./realm-entry.ts). What the engine gives back (a PDF's bytes) is copied into the server's with
// `ours`.
import vm from 'node:vm'
import { deflateSync } from 'node:zlib'
import type { PDFDocument, PDFImage } from 'pdf-lib'
import type { RealmEngine } from './realm-entry'
import { engineSource } from './source'

export type PdfEngine = RealmEngine

let current: Promise<PdfEngine> | null = null

/** The engine, started on first use and kept until releasePdfEngine. */
export function pdfEngine(): Promise<PdfEngine> {
  current ??= start().catch((e) => {
    current = null
    throw e
  })
  return current
}

async function start(): Promise<PdfEngine> {
  const source = await engineSource()
  // Only what pdf-lib, fontkit and pako reach for: timers (pdf-lib yields between objects as it writes a file) and
  // text codecs; no process, no require, no file or network access.
  const context = vm.createContext({
    setTimeout: turnForZeroTimeout,
    clearTimeout: clearEither,
    setImmediate,
    clearImmediate,
    queueMicrotask,
    TextEncoder,
    TextDecoder,
    console,
  })
  // Without a file name: given one, the compiled binary kept the script, and through it the whole realm, after its
  // release (37,000 objects more at idle, measured with bun:jsc's heapStats).
  vm.runInContext(source, context)
  const engine = (context as { __pdfEngine?: PdfEngine }).__pdfEngine
  if (!engine) throw new Error('the PDF engine did not start')
  deflateNatively(engine)
  return engine
}

/**
 * pdf-lib yields between objects as it writes a file with a zero timeout ("a tick of the macrotask queue"), and Bun
 * holds a zero timeout for about a millisecond: a millisecond or two of nothing in every PDF. A turn of the event
 * loop (setImmediate, as shared/turns' nextTurn) lets other requests in just the same, at once.
 */
function turnForZeroTimeout(run: () => void, ms?: number, ...args: unknown[]): unknown {
  return ms ? setTimeout(run, ms, ...args) : setImmediate(run, ...args)
}
/** Clears what turnForZeroTimeout gave: either clear ignores the other's handle. */
function clearEither(handle: unknown): void {
  clearTimeout(handle as ReturnType<typeof setTimeout>)
  clearImmediate(handle as ReturnType<typeof setImmediate>)
}

/**
 * pdf-lib compresses its object streams and embedded files (the font subsets, their ToUnicode maps, Factur-X's XML)
 * through pako, which sets up a fresh deflate state of typed arrays for each stream: about 300 KB, several times a
 * PDF, freed only when the collector gets to it. Under a stream of PDFs those buffers were most of the server's
 * memory (one client asking PDFs one after another took it to 210 MB). node:zlib's deflate gives the same format from
 * native memory it frees when it returns. pdf-lib calls `pako.deflate` on the module's own object at each use.
 */
function deflateNatively(engine: PdfEngine): void {
  engine.pako.deflate = ((data: Uint8Array) => engine.bytes(deflateSync(data))) as typeof engine.pako.deflate
}

/**
 * Lets the engine go: the realm is collected once no PDF under way holds a piece of it. Bun's node:vm keeps the last
 * context it ran code in; running a line in an empty one moves that on, so the engine's is not held by it.
 */
export function releasePdfEngine(): void {
  if (!current) return
  current = null
  vm.runInContext('0', vm.createContext({}))
}

/**
 * Bytes the engine made, copied into a Uint8Array of the server's realm: a view of the engine's own buffer would
 * hold the whole realm for as long as the bytes are kept.
 */
export function ours(u: Uint8Array): Uint8Array {
  return new Uint8Array(u)
}

/**
 * A PNG or JPEG embedded in `pdf` by its media type: the one call the logo check (modules/business/logo.ts) and the
 * PDFs' logo (modules/pdf/branding.ts) both make, so a logo taken is one every PDF can draw.
 */
export function embedImage(
  engine: PdfEngine,
  pdf: PDFDocument,
  image: { bytes: Uint8Array; type: string },
): Promise<PDFImage> {
  const bytes = engine.bytes(image.bytes)
  return image.type === 'image/png' ? pdf.embedPng(bytes) : pdf.embedJpg(bytes)
}
