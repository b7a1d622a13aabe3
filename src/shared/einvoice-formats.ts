// The e-invoice formats of extensions §3 and the EAS code list their electronic addresses use: shared by Business
// setup (which format a Send attaches), the Client and document checks and the einvoice module's writers.

/** `GET /v1/documents/{id}/xml?format=`: the XML formats. */
export const XML_FORMATS = ['ubl', 'cii', 'xrechnung-ubl', 'xrechnung-cii', 'peppol'] as const
export type XmlFormat = (typeof XML_FORMATS)[number]

/** What a Send may attach (Business `einvoice_format`): an XML format, or the Factur-X PDF. */
export const EINVOICE_FORMATS = [...XML_FORMATS, 'facturx'] as const
export type EInvoiceFormat = (typeof EINVOICE_FORMATS)[number]

export function isXmlFormat(s: string): s is XmlFormat {
  return (XML_FORMATS as readonly string[]).includes(s)
}

export function isEInvoiceFormat(s: string): s is EInvoiceFormat {
  return (EINVOICE_FORMATS as readonly string[]).includes(s)
}

/**
 * The CEF EAS code list (electronic address schemes) both the CEN rules (BR-CL-25) and Peppol (3.0.19) accept: the
 * CEN list less 0242, 0245, 0246 and 0248, which Peppol's copy does not hold yet, so an address taken passes both.
 */
const EAS_LIST = `0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0147 0151 0154 0158 0170 0177 0183 0184 0188
0190 0191 0192 0193 0194 0195 0196 0198 0199 0200 0201 0202 0203 0204 0205 0208 0209 0210 0211 0212 0213 0215 0216 0217
0218 0219 0220 0221 0225 0230 0235 0240 0244 9910 9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928
9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951
9952 9953 9957 9959 AN AQ AS AU EM`

export const EAS_CODES: ReadonlySet<string> = new Set(EAS_LIST.split(/\s+/))

export interface ElectronicAddress {
  scheme: string
  value: string
}

/** Problems with an electronic address as given, in words for a field error; empty when it is fine. */
export function electronicAddressFault(a: { scheme?: string | null; value?: string | null }): string | null {
  const scheme = a.scheme?.trim() ?? ''
  const value = a.value?.trim() ?? ''
  if (!EAS_CODES.has(scheme))
    return 'scheme must be a code of the CEF EAS list, such as 0088 (GLN), 9930 (German VAT number) or EM (email)'
  if (value === '') return 'value is required'
  if (value.length > 200) return 'value must be at most 200 characters'
  return null
}
