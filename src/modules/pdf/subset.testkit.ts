// For the tests of font subsets: a fontkit font as they reach it, and the bytes a subset of some text writes.

/** What a subset's bytes are made from: fontkit's font, its glyphs by character or id, and the subset's writer. */
export interface SubsetFont<G extends { id: number } = { id: number }> {
  glyphForCodePoint(cp: number): G
  getGlyph(id: number): G
  createSubset(): { includeGlyph(g: G): number; encodeStream(): any }
}

/** The TrueType file a subset of `font` writes for the glyphs of `text`, and the subset ids of those glyphs. */
export async function subsetOf<G extends { id: number }>(
  font: SubsetFont<G>,
  text: string,
): Promise<{ bytes: Buffer; ids: number[] }> {
  const subset = font.createSubset()
  const ids = [...text].map((ch) => subset.includeGlyph(font.glyphForCodePoint(ch.codePointAt(0)!)))
  const parts: Uint8Array[] = []
  await new Promise<void>((resolve, reject) =>
    subset
      .encodeStream()
      .on('data', (b: Uint8Array) => parts.push(new Uint8Array(b)))
      .on('end', resolve)
      .on('error', reject),
  )
  return { bytes: Buffer.concat(parts), ids }
}
