// TypeBox models of an import (extensions §19): the CSV body as the API documents it, and the answer.
import { Type as t } from '@sinclair/typebox'
import { Int } from '../../shared/schemas'
import { MAX_IMPORT_ROWS_WORDS, MAX_IMPORT_WORDS } from './csv'

/** The CSV file's text: the API reads it from a text/csv body, MCP from the `csv` argument, the application from a file. */
export const ImportCsv = t.String({
  description: `UTF-8 CSV, comma or semicolon separated, a header row of the create body's field names (a nested field as \`electronic_address.scheme\`), then at most ${MAX_IMPORT_ROWS_WORDS} rows; at most ${MAX_IMPORT_WORDS}. An empty cell leaves its field out.`,
})

export const ImportResult = t.Object(
  {
    created: Int({ minimum: 0 }),
    ids: t.Array(Int(), { description: "the created records' ids, in the file's order" }),
  },
  { title: 'ImportResult' },
)
