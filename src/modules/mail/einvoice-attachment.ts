// The hook to the einvoice module: the EN16931 XML a Send attaches where the document is exportable.
import type { Queryable } from '../../db/client'
import type { BusinessRow } from '../business'
import type { DocumentView } from '../documents'

export interface XmlAttachment {
  filename: string
  xml: string
}

/**
 * HOOK: the einvoice module (src/modules/einvoice/index.ts) is not there yet. When it is, answer here with its
 * function that gives `{filename, xml}` for an exportable document and null for any other; until then no XML goes.
 */
export async function einvoiceAttachment(_q: Queryable, _business: BusinessRow, _doc: DocumentView): Promise<XmlAttachment | null> {
  return null
}
