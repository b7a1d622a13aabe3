// fast-xml-parser, loaded the first time an XML file is read (an ECB rates file, a bank statement): a server that
// never reads one never evaluates the library (several MB of its code and objects kept for the process's life).
import type { X2jOptions, XMLParser, XMLValidator as Validator } from 'fast-xml-parser'

type Library = { XMLParser: typeof XMLParser; XMLValidator: typeof Validator }
let library: Library | undefined

/** The library, evaluated on first use: `require` in the bundle runs a module when it is first required. */
function fastXmlParser(): Library {
  library ??= require('fast-xml-parser') as Library
  return library
}

/** A parser with these options, made on its first use. */
export function lazyXmlParser(options: Partial<X2jOptions>): () => XMLParser {
  let parser: XMLParser | undefined
  return () => (parser ??= new (fastXmlParser().XMLParser)(options))
}

/** fast-xml-parser's well-formedness check: true, or the first fault with its line. */
export function validateXml(xml: string): ReturnType<typeof Validator.validate> {
  return fastXmlParser().XMLValidator.validate(xml)
}
