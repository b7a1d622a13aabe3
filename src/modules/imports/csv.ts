// Reads an import's CSV file (extensions §19) into its header and rows: csv-parse for the quoting (quoted fields,
// separators and line breaks inside them, doubled quotes), a BOM dropped, comma or semicolon as the header row uses.
import type { parse as Parse } from 'csv-parse/sync'
import { InvalidRequest } from '../../shared/errors'

/** At most this many rows after the header (extensions §19); more is 422 naming `rows`. */
export const MAX_IMPORT_ROWS = 10_000
/**
 * The row limit as the texts write it ("10,000"), grouped here: `toLocaleString` would load ICU's number data into
 * every server (about 2 MB of memory) for these few sentences.
 */
export const MAX_IMPORT_ROWS_WORDS = String(MAX_IMPORT_ROWS).replace(/\B(?=(\d{3})+$)/g, ',')
/** At most this many bytes of CSV (extensions §19, "10 MB"); more is 413 before the file is read. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024
export const MAX_IMPORT_WORDS = '10 MB'

export interface CsvFile {
  header: string[]
  /** Each row's cells, as many as the header has (checked). */
  rows: string[][]
}

/**
 * The separator the header row uses: a semicolon when it has more semicolons than commas outside quotes (a file saved
 * by a spreadsheet in a comma-decimal locale), else a comma. Read from the header alone, since a comma inside an
 * unquoted address cell of a semicolon file is text, not a separator.
 */
function separatorOf(text: string): ',' | ';' {
  let commas = 0
  let semicolons = 0
  let quoted = false
  for (const ch of text) {
    if (ch === '"') quoted = !quoted
    else if (!quoted && (ch === '\n' || ch === '\r')) break
    else if (!quoted && ch === ',') commas++
    else if (!quoted && ch === ';') semicolons++
  }
  return semicolons > commas ? ';' : ','
}

/** What csv-parse's refusal means for the person who saved the file, with the line it stopped at. */
function csvFault(e: unknown): string {
  const err = e as { code?: string; lines?: number }
  const at = err.lines ? ` (line ${err.lines})` : ''
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `is not valid CSV: a quoted field is never closed${at}`
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `is not valid CSV: a quote inside a quoted field must be doubled${at}`
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return `is not valid CSV: text follows a closing quote${at}`
    default:
      return `is not valid CSV${at}`
  }
}

/** The file's header and rows, or 422 invalid_request saying what is wrong with the file as a whole or which row. */
export function readCsv(text: string): CsvFile {
  // The BOM a spreadsheet writes is not part of the first column's name.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  let records: string[][]
  try {
    // Required on the first import, not at start: a server that imports nothing never evaluates csv-parse.
    const parse = (require('csv-parse/sync') as { parse: typeof Parse }).parse
    records = parse(body, {
      delimiter: separatorOf(body),
      relax_column_count: true,
      skip_empty_lines: true,
    }) as string[][]
  } catch (e) {
    throw new InvalidRequest({ body: [csvFault(e)] })
  }
  // Rows of only separators at the end (a spreadsheet's trailing blank rows) are no rows; others keep their place.
  while (records.length > 1 && records.at(-1)!.every((c) => c.trim() === '')) records.pop()
  const [header, ...rows] = records
  if (!header) throw new InvalidRequest({ body: ["must be CSV with a header row of the create body's field names"] })
  if (rows.length === 0) throw new InvalidRequest({ rows: ['must hold at least one row after the header'] })
  if (rows.length > MAX_IMPORT_ROWS)
    throw new InvalidRequest({
      rows: [`must be at most ${MAX_IMPORT_ROWS_WORDS} rows; this file has ${rows.length}`],
    })
  const errors: Record<string, string[]> = {}
  rows.forEach((cells, i) => {
    if (cells.length !== header.length)
      errors[`rows.${i + 1}`] = [`has ${cells.length} cells where the header has ${header.length}`]
  })
  if (Object.keys(errors).length > 0) throw new InvalidRequest(errors)
  return { header: header.map((h) => h.trim()), rows }
}
