// A Business's Clients and its Products as the pages keep them: each a catalog with its list page (the heading with
// Import from CSV and New, the search box, a page of the records, the pager) and its import from a CSV file.
import { ClientCreateBody } from '../../../../modules/clients'
import { ProductCreateBody } from '../../../../modules/products'
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Layout } from '../../layout'
import { RecordsTable, SearchBox, type Column } from '../../list'
import { esc, Notice, Refused } from '../../ui'
import { PageHead, Pager } from './words'

export interface Catalog {
  /** The list's path under the Business, and the Layout's section. */
  section: 'clients' | 'products'
  /** "Client", "Product": the pages' words name it. */
  noun: 'Client' | 'Product'
  /** The list operation, narrowed by `search`. */
  list: 'clients_rows' | 'products_rows'
  /** What the search looks in. */
  placeholder: string
  /** The import operation, and the notice after it. */
  import: 'clients_import' | 'products_import'
  imported: 'clients_imported' | 'products_imported'
  /** The create body whose field names an import's header row uses. */
  body: { properties: Record<string, unknown>; required?: string[] }
}

export const CLIENTS: Catalog = {
  section: 'clients',
  noun: 'Client',
  list: 'clients_rows',
  placeholder: 'Name, email, VAT number or account code',
  import: 'clients_import',
  imported: 'clients_imported',
  body: ClientCreateBody,
}

export const PRODUCTS: Catalog = {
  section: 'products',
  noun: 'Product',
  list: 'products_rows',
  placeholder: 'Name, code, SKU or description',
  import: 'products_import',
  imported: 'products_imported',
  body: ProductCreateBody,
}

export async function CatalogList<R>(p: {
  kit: AppKit
  c: InBusiness
  of: Catalog
  columns: ReadonlyArray<Column<R>>
  /** A refused change of a row (Archive), shown above the list. */
  state?: FormState
}): Promise<string> {
  const { c } = p
  const { noun, section } = p.of
  const search = c.url.searchParams.get('search')?.trim() || undefined
  const page = await p.kit.list<R>(c, p.of.list, { search })
  const at = `${c.base}/${section}`
  return (
    <Layout c={c} title={`${noun}s`} section={section}>
      <Notice text={c.notice} />
      {p.state ? <Refused state={p.state} /> : ''}
      <PageHead c={c} title={`${noun}s`}>
        <a href={esc(`${at}/import`)}>Import from CSV</a>
        <a class="button" href={esc(`${at}/new`)}>
          New {esc(noun.toLowerCase())}
        </a>
      </PageHead>
      <SearchBox
        action={at}
        id={`${noun.toLowerCase()}-search`}
        label={`Search ${noun}s`}
        value={search}
        placeholder={p.of.placeholder}
      />
      <RecordsTable columns={p.columns} rows={page.data} empty={search ? `No ${noun} matches.` : `No ${noun}s yet.`} />
      <Pager next={page.next_cursor} url={c.url} />
    </Layout>
  )
}
