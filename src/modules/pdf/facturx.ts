// Factur-X (ZUGFeRD 2, profile EN 16931): a document PDF turned into PDF/A-3b carrying its CII XML as `factur-x.xml`
// (AFRelationship Alternative, named in the catalog's /AF), the XMP packet PDF/A and Factur-X ask for, an sRGB output
// intent whose ICC profile ships in the binary, and a trailer /ID. Fonts are already embedded by the page writer.
import { createHash } from 'node:crypto'
import { ours, pdfEngine } from '../../shared/pdf-engine'
import iccPath from './icc/sRGB.icc' with { type: 'file' }

let icc: Promise<Uint8Array> | null = null
function iccBytes(): Promise<Uint8Array> {
  icc ??= Bun.file(iccPath)
    .arrayBuffer()
    .then((b) => new Uint8Array(b))
  return icc
}

const FACTURX_FILENAME = 'factur-x.xml'

/** Text for the XMP packet: XML-escaped. */
function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** The XMP packet: PDF/A-3B identification, the Info dictionary's words, and the Factur-X extension schema. */
function xmp(title: string, producer: string, date: Date): string {
  const at = date.toISOString().replace(/\.\d{3}Z$/, 'Z')
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
   <pdfaid:part>3</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(title)}</rdf:li></rdf:Alt></dc:title>
   <dc:format>application/pdf</dc:format>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <pdf:Producer>${xmlText(producer)}</pdf:Producer>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
   <xmp:CreatorTool>${xmlText(producer)}</xmp:CreatorTool>
   <xmp:CreateDate>${at}</xmp:CreateDate>
   <xmp:ModifyDate>${at}</xmp:ModifyDate>
   <xmp:MetadataDate>${at}</xmp:MetadataDate>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#">
   <fx:DocumentType>INVOICE</fx:DocumentType>
   <fx:DocumentFileName>${FACTURX_FILENAME}</fx:DocumentFileName>
   <fx:Version>1.0</fx:Version>
   <fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>
  </rdf:Description>
  <rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
   <pdfaExtension:schemas>
    <rdf:Bag>
     <rdf:li rdf:parseType="Resource">
      <pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
      <pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
      <pdfaSchema:prefix>fx</pdfaSchema:prefix>
      <pdfaSchema:property>
       <rdf:Seq>
        <rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentFileName</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The name of the embedded XML document</pdfaProperty:description></rdf:li>
        <rdf:li rdf:parseType="Resource"><pdfaProperty:name>DocumentType</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The type of the hybrid document in capital letters, e.g. INVOICE or ORDER</pdfaProperty:description></rdf:li>
        <rdf:li rdf:parseType="Resource"><pdfaProperty:name>Version</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The actual version of the standard applying to the embedded XML document</pdfaProperty:description></rdf:li>
        <rdf:li rdf:parseType="Resource"><pdfaProperty:name>ConformanceLevel</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>The conformance level of the embedded XML document</pdfaProperty:description></rdf:li>
       </rdf:Seq>
      </pdfaSchema:property>
     </rdf:li>
    </rdf:Bag>
   </pdfaExtension:schemas>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`
}

/**
 * The Factur-X PDF of a document: its PDF (as the page writer made it) with `xml` (the CII the `cii` format answers)
 * embedded. `date` stamps the Info dictionary, the XMP packet and the embedded file alike, as PDF/A asks.
 */
export async function facturxPdf(
  pdfBytes: Uint8Array,
  xml: string,
  meta: { title: string; date: Date },
): Promise<Uint8Array> {
  const engine = await pdfEngine()
  const { PDFDocument, PDFName, PDFString, PDFHexString } = engine.pdf
  // The engine's realm checks bytes and dates as its own (see shared/pdf-engine).
  const date = engine.date(meta.date.getTime())
  const pdf = await PDFDocument.load(engine.bytes(pdfBytes), { updateMetadata: false })
  const ctx = pdf.context
  const producer = 'invoicing'
  pdf.setTitle(meta.title, { showInWindowTitleBar: true })
  pdf.setProducer(producer)
  pdf.setCreator(producer)
  pdf.setCreationDate(date)
  pdf.setModificationDate(date)

  // The embedded CII: a file specification the catalog names in /AF (PDF/A-3) and in the EmbeddedFiles name tree.
  const data = new TextEncoder().encode(xml)
  const file = ctx.flateStream(engine.bytes(data), {
    Type: 'EmbeddedFile',
    Subtype: 'text/xml',
    Params: { Size: data.length, ModDate: PDFString.fromDate(date) },
  })
  const fileRef = ctx.register(file)
  // The name is ASCII, so /F, /UF and the name-tree key are the plain string (extensions §3): a UTF-16 hex string is
  // text too, but a reader looking the file up by name (pdfdetach -savefile factur-x.xml) compares the bytes.
  const name = PDFString.of(FACTURX_FILENAME)
  const spec = ctx.obj({
    Type: 'Filespec',
    F: name,
    UF: name,
    Desc: PDFString.of('Factur-X invoice (CII, EN 16931)'),
    AFRelationship: 'Alternative',
    EF: { F: fileRef, UF: fileRef },
  })
  const specRef = ctx.register(spec)
  pdf.catalog.set(PDFName.of('AF'), ctx.obj([specRef]))
  pdf.catalog.set(PDFName.of('Names'), ctx.obj({ EmbeddedFiles: { Names: [name, specRef] } }))

  // The XMP packet, uncompressed so any reader finds it.
  const packet = new TextEncoder().encode(xmp(meta.title, producer, meta.date))
  const metadata = ctx.stream(engine.bytes(packet), { Type: 'Metadata', Subtype: 'XML', Length: packet.length })
  pdf.catalog.set(PDFName.of('Metadata'), ctx.register(metadata))

  // The output intent: every colour the page writer uses is DeviceRGB, which PDF/A binds to this sRGB profile.
  const profile = ctx.flateStream(engine.bytes(await iccBytes()), { N: 3 })
  const intent = ctx.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
    Info: PDFString.of('sRGB IEC61966-2.1'),
    DestOutputProfile: ctx.register(profile),
  })
  pdf.catalog.set(PDFName.of('OutputIntents'), ctx.obj([ctx.register(intent)]))

  // PDF/A asks for a file identifier; derived from the content, so the same document gives the same file.
  const id = createHash('md5').update(pdfBytes).update(data).digest('hex')
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of(id), PDFHexString.of(id)])
  return ours(await pdf.save({ useObjectStreams: false }))
}
