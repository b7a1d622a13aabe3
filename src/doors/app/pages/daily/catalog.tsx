// The list page of a Business's Clients or of its Products: the heading with Import from CSV and New, the search box
// (the list operation's `search`), a page of the records and the pager.
import type { FormState, InBusiness } from '../../context'
import type { AppKit } from '../../kit'
import { Layout } from '../../layout'
import { RecordsTable, SearchBox, type Column } from '../../list'
import { esc, Notice, Refused } from '../../ui'
import { PageHead, Pager } from './words'

export async function CatalogList<R>(p: {
  kit: AppKit
  c: InBusiness
  /** A refused change of a row (Archive), shown above the list. */
  state?: FormState
  /** The list's path under the Business, and the Layout's section. */
  section: 'clients' | 'products'
  /** "Client", "Product": the page's words name it. */
  noun: string
  /** The list operation, narrowed by `search`. */
  operation: string
  /** What the search looks in. */
  placeholder: string
  columns: ReadonlyArray<Column<R>>
}): Promise<string> {
  const { c, noun } = p
  const search = c.url.searchParams.get('search')?.trim() || undefined
  const page = await p.kit.list<R>(c, p.operation, { search })
  const at = `${c.base}/${p.section}`
  return (
    <Layout c={c} title={`${noun}s`} section={p.section}>
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
        placeholder={p.placeholder}
      />
      <RecordsTable columns={p.columns} rows={page.data} empty={search ? `No ${noun} matches.` : `No ${noun}s yet.`} />
      <Pager next={page.next_cursor} url={c.url} />
    </Layout>
  )
}
