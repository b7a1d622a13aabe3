// For the tests of font subsets: a fontkit font as they reach it, the bytes a subset of some text writes, and the
// fonts a PDF embeds as pdffonts lists them.

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

/** pdffonts' rows: name, embedded, subset. */
export function fontsOf(path: string): { name: string; emb: string; sub: string }[] {
  const rows = Bun.spawnSync(['pdffonts', path]).stdout.toString().trim().split('\n').slice(2)
  // Columns: name type encoding emb sub uni object ID (the type may hold a space: "CID TrueType").
  return rows.map((row) => {
    const cols = row.trim().split(/\s+/)
    return { name: cols[0]!, emb: cols.at(-5)!, sub: cols.at(-4)! }
  })
}
