// Operations of imports (extensions §19): Clients and Products created from a CSV file, every row or none.
import { answersFromCommit, json, type Operation } from '../../platform/operation'
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS_WORDS, MAX_IMPORT_WORDS } from './csv'
import { ImportCsv, ImportResult } from './imports.model'
import { importClients, importProducts } from './imports.service'

const upload = { mediaType: 'text/csv', maxBytes: MAX_IMPORT_BYTES, limitWords: MAX_IMPORT_WORDS, arg: 'csv' } as const

/** What every import is: a CSV body, all its rows made in one transaction, replayed under its Idempotency-Key. */
const csvImport = {
  body: ImportCsv,
  upload,
  output: ImportResult,
  access: 'write',
  idempotent: true,
  committed: answersFromCommit,
  mcp: true,
} as const

const rules = (what: string, create: string) =>
  `Creates every row as \`${create}\` would, in one transaction, or none: a refused row makes the whole import 422 \`invalid_request\` with \`errors\` keyed \`rows.N.field\` (N from 1 after the header). A column naming no ${what} create field is 422 under \`header.<column>\`; over ${MAX_IMPORT_ROWS_WORDS} rows 422 under \`rows\`; over ${MAX_IMPORT_WORDS} 413. The body is the CSV file (\`Content-Type: text/csv\`); MCP takes it as \`csv\`.`

export const importsOperations: Operation[] = [
  {
    ...csvImport,
    name: 'clients_import',
    tag: 'Clients',
    summary: 'Import Clients from a CSV file',
    description: rules('Client', 'POST /v1/clients'),
    http: { method: 'POST', path: '/v1/imports/clients', status: 201 },
    refusals: ['numbering_at_its_end'],
    async run(actor, { body }, { deps }) {
      return json(await importClients(deps, { id: actor.businessId, currency: actor.currency }, body as string), 201)
    },
  },
  {
    ...csvImport,
    name: 'products_import',
    tag: 'Products',
    summary: 'Import Products from a CSV file',
    description: rules('Product', 'POST /v1/products'),
    http: { method: 'POST', path: '/v1/imports/products', status: 201 },
    refusals: [],
    async run(actor, { body }, { deps }) {
      return json(await importProducts(deps, actor.businessId, body as string), 201)
    },
  },
]
