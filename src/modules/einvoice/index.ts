// The einvoice module's public face: the mail module attaches the XML of a document that exports.
export {
  exportDocumentXml,
  xmlAttachmentFor,
  facturxAttachmentFor,
  exportFacturx,
  type XmlFile,
  type Exportability,
  type ExportSource,
} from './einvoice.service'
