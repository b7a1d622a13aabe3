// Importing Clients and Products from a CSV file (extensions §19): the upload form, and the refused rows of a file that
// was not imported, row by row in the words the API gives. The import itself is the table's operation.
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS_WORDS, MAX_IMPORT_WORDS } from '../../../../modules/imports'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Layout } from '../../layout'
import { esc, PostForm } from '../../ui'
import { CLIENTS, PRODUCTS, type Catalog } from './catalog'
import { RecordsTable, type Column } from '../../list'

/** A refused file's faults: those of its rows (row, field, words) and those of the file as a whole. */
function faultsOf(errors: Record<string, string[]>) {
  const rows: Array<{ row: number; field: string; words: string }> = []
  const file: Array<{ at: string; words: string }> = []
  for (const [key, words] of Object.entries(errors)) {
    const m = /^rows\.(\d+)(?:\.(.+))?$/.exec(key)
    if (m) rows.push({ row: Number(m[1]), field: m[2] ?? '', words: words.join('; ') })
    else file.push({ at: key.replace(/^header\./, 'column '), words: words.join('; ') })
  }
  return { rows, file }
}

type RowFault = ReturnType<typeof faultsOf>['rows'][number]

/** A refused row's fault: the row, the field (or the row as a whole), what is wrong. */
const FAULT_COLUMNS: Column<RowFault>[] = [
  { head: 'Row', key: true, cell: (r) => `Row ${r.row}` },
  { head: 'Field', cell: (r) => <code>{esc(r.field || '(the row)')}</code> },
  { head: 'What is wrong', cell: (r) => esc(r.words) },
]

function Refusals({ state }: { state: FormState }): JSX.Element {
  if (!state.message && Object.keys(state.errors).length === 0) return ''
  const { rows, file } = faultsOf(state.errors)
  const refusedRows = new Set(rows.map((r) => r.row)).size
  return (
    <div class="notice bad" role="alert" id="import-refused" data-code={state.code ? esc(state.code) : undefined}>
      <p class="flush-top">
        <strong>Nothing was imported.</strong>{' '}
        {refusedRows
          ? `${refusedRows} ${refusedRows === 1 ? 'row is' : 'rows are'} refused; correct ${refusedRows === 1 ? 'it' : 'them'} in the file and upload it again. Rows are counted from 1 after the header.`
          : file.length
            ? 'Correct the file and upload it again.'
            : esc(state.message ?? '')}
      </p>
      {file.length ? (
        <ul class="flush">
          {file.map((f) => (
            <li>
              {f.at === 'body' ? 'The file' : f.at === 'file' ? 'File' : esc(f.at)}: {esc(f.words)}
            </li>
          ))}
        </ul>
      ) : (
        ''
      )}
      {rows.length ? <RecordsTable id="refused-rows" columns={FAULT_COLUMNS} rows={rows} /> : ''}
    </div>
  )
}

function ImportPage({ c, state, kind }: { c: InBusiness; state: FormState; kind: Catalog }): JSX.Element {
  const required = kind.body.required ?? []
  const optional = Object.keys(kind.body.properties).filter((f) => !required.includes(f))
  return (
    <Layout c={c} title={`Import ${kind.noun}s`} section={kind.section}>
      <h1>Import {kind.noun}s from a CSV file</h1>
      <Refusals state={state} />
      <div class="card">
        <PostForm
          action={`${c.base}/${kind.section}/import`}
          token={c.csrf}
          enctype="multipart/form-data"
          id="import-form"
        >
          <p class="flush-top">
            The first row names the fields; each row after it is one {kind.noun}. Commas or semicolons separate the
            cells, as your spreadsheet saves them. Every row is imported, or none: a refused row is listed here and
            nothing changes. At most {MAX_IMPORT_ROWS_WORDS} rows and {MAX_IMPORT_WORDS}.
          </p>
          <p>
            Required: {required.map((f) => <code>{esc(f)}</code>).join(', ')}. Optional:{' '}
            {optional
              .map((f) => <code>{esc(f === 'electronic_address' ? `${f}.scheme, ${f}.value` : f)}</code>)
              .join(', ')}
            . An empty cell leaves its field out.
          </p>
          <label for="import-file">CSV file</label>
          <input id="import-file" type="file" name="file" accept=".csv,text/csv" required />
          <div class="row">
            <button type="submit">Import {kind.noun}s</button>
            <a href={esc(`${c.base}/${kind.section}`)}>Cancel</a>
          </div>
        </PostForm>
      </div>
    </Layout>
  )
}

export function importRoutes(kit: AppKit): void {
  for (const kind of [CLIENTS, PRODUCTS]) {
    const page = (c: InBusiness, state: FormState) => <ImportPage c={c} state={state} kind={kind} />
    kit.page(`/${kind.section}/import`, 'change', page)
    kit.action(
      `/${kind.section}/import`,
      'change',
      async (c, data) => {
        // No file chosen is an empty file: the operation refuses it in its own words.
        const file = data.files.get('file')
        await kit.operation(c, kind.import, { text: file ? new TextDecoder().decode(file) : '' })
        return kit.done(c, `/${kind.section}`, kind.imported)
      },
      page,
      { upload: MAX_IMPORT_BYTES },
    )
  }
}
