// The PDF engine's code as one script for its realm (./index.ts). From a checkout it is bundled from realm-entry.ts
// when a realm starts (about 70 ms, a development cost only); the binary carries it built and gzipped, and its build
// (scripts/build.ts, pdfEngineSource) puts that in place of this file.
import { join } from 'node:path'

export const ENGINE_ENTRY = join(import.meta.dir, 'realm-entry.ts')

/** The bundle's options: the binary's build (scripts/build.ts) makes its copy with the same ones. */
export const ENGINE_BUILD = { format: 'iife', target: 'bun', minify: true } as const

export async function engineSource(): Promise<string> {
  const built = await Bun.build({ entrypoints: [ENGINE_ENTRY], ...ENGINE_BUILD })
  if (!built.success || !built.outputs[0]) throw new AggregateError(built.logs, 'the PDF engine could not be bundled')
  return built.outputs[0].text()
}
