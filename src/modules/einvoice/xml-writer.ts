// The XML writer of the e-invoice writers: elements, attributes and text, every value escaped here and characters
// XML 1.0 cannot carry dropped. It replaces xmlbuilder2, which spent ~18 ms of CPU on a 100-Line invoice (the
// export's budget is 20 ms); namespaces are declared once on the root, as the UBL and CII writers use them.

/** Characters XML 1.0 cannot carry (control characters a JSON string may hold). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu
const TEXT_SPECIAL = /[&<>\r]/g
const ATTR_SPECIAL = /[&<>"\t\n\r]/g
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
}

/** Text content: & < > escaped, a carriage return kept as a reference so parsers do not fold it. */
function escapeText(s: string): string {
  return s.replace(NOT_XML, '').replace(TEXT_SPECIAL, (c) => ENTITIES[c]!)
}

/** An attribute value: also " and the whitespace characters attribute normalisation would change. */
function escapeAttr(s: string): string {
  return s.replace(NOT_XML, '').replace(ATTR_SPECIAL, (c) => ENTITIES[c]!)
}

export class XmlElement {
  private readonly children: XmlElement[] = []
  private text: string | null = null

  constructor(
    readonly name: string,
    private readonly attrs: Record<string, string>,
  ) {}

  /** A child element; `_namespace` names the namespace its prefix stands for, declared on the root. */
  ele(_namespace: string, name: string, attrs: Record<string, string> = {}): XmlElement {
    const child = new XmlElement(name, attrs)
    this.children.push(child)
    return child
  }

  /** The element's text (it then holds no children). */
  txt(text: string): this {
    this.text = text
    return this
  }

  write(out: string[], indent: string): void {
    let open = `${indent}<${this.name}`
    for (const [k, v] of Object.entries(this.attrs)) open += ` ${k}="${escapeAttr(v)}"`
    if (this.text !== null) {
      out.push(`${open}>${escapeText(this.text)}</${this.name}>`)
    } else if (this.children.length === 0) {
      out.push(`${open}/>`)
    } else {
      out.push(`${open}>`)
      const inner = `${indent}  `
      for (const c of this.children) c.write(out, inner)
      out.push(`${indent}</${this.name}>`)
    }
  }
}

/** A document whose root element lives in `namespace` (declared as its prefix's, or as the default without one). */
export function xmlDocument(
  namespace: string,
  rootName: string,
  declarations: Record<string, string>,
): { root: XmlElement; end(): string } {
  const colon = rootName.indexOf(':')
  const own = colon > 0 ? { [`xmlns:${rootName.slice(0, colon)}`]: namespace } : { xmlns: namespace }
  const root = new XmlElement(rootName, { ...own, ...declarations })
  return {
    root,
    end() {
      const out = ['<?xml version="1.0" encoding="UTF-8"?>']
      root.write(out, '')
      return out.join('\n')
    },
  }
}

/**
 * The element writers of one namespace prefix: `element` adds a child, `text` a child holding its text, and nothing
 * for an absent or empty value (an optional field of the model is left out, never written empty).
 */
export function prefixed(namespace: string, prefix: string) {
  return {
    element(parent: XmlElement, name: string): XmlElement {
      return parent.ele(namespace, `${prefix}:${name}`)
    },
    text(parent: XmlElement, name: string, value: string | null | undefined, attrs: Record<string, string> = {}): void {
      if (value === null || value === undefined || value === '') return
      parent.ele(namespace, `${prefix}:${name}`, attrs).txt(value)
    },
  }
}
