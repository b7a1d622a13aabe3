// Number patterns: literal text, one counter {N…} and an optional {YYYY}; formats and reads numbers back.

export interface Pattern {
  readonly source: string
  readonly width: number
  readonly hasYear: boolean
  /** Largest value the counter holds; it is never taken (reaching it is numbering_at_its_end). */
  readonly max: number
}

export const DEFAULT_PATTERNS = {
  invoice: 'INV-{YYYY}-{NNNN}',
  proforma: 'PRO-{YYYY}-{NNNN}',
  credit_note: 'CN-{YYYY}-{NNNN}',
  quote: 'QUO-{YYYY}-{NNNN}',
  receipt: 'RCT-{YYYY}-{NNNNN}',
  client: 'C{NNNNN}',
} as const

const TOKEN_RE = /\{(N+|YYYY)\}/g

/** Reads a pattern; null when it has no counter, two counters, a counter wider than 15 or an unknown {token}. */
export function parsePattern(source: string): Pattern | null {
  if (source.length === 0 || source.length > 100) return null
  let width = 0
  let counters = 0
  let years = 0
  for (const m of source.matchAll(TOKEN_RE)) {
    if (m[1] === 'YYYY') years++
    else {
      counters++
      width = m[1]!.length
    }
  }
  // Any brace left after removing the known tokens is a typo such as {YY} or {n}.
  if (/[{}]/.test(source.replace(TOKEN_RE, ''))) return null
  if (counters !== 1 || years > 1 || width > 15) return null
  return { source, width, hasYear: years === 1, max: 10 ** width - 1 }
}

export function formatNumber(p: Pattern, counter: number, year: number, prefix = ''): string {
  return (
    prefix +
    p.source.replace(TOKEN_RE, (_, tok: string) =>
      tok === 'YYYY' ? String(year).padStart(4, '0') : String(counter).padStart(p.width, '0'),
    )
  )
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Reads a number written in the pattern: its counter and year, or null when it does not fit.
 * A counter wider than the pattern's (e.g. 5 digits in {NNNN}) is reported as `beyond`.
 */
export function readNumber(
  p: Pattern,
  text: string,
  prefix = '',
): { counter: number; year: number | null; beyond: boolean } | null {
  let re = '^' + escapeRe(prefix)
  const order: Array<'N' | 'Y'> = []
  let last = 0
  for (const m of p.source.matchAll(TOKEN_RE)) {
    re += escapeRe(p.source.slice(last, m.index))
    if (m[1] === 'YYYY') {
      re += '([0-9]{4})'
      order.push('Y')
    } else {
      re += `([0-9]{${p.width},})`
      order.push('N')
    }
    last = m.index! + m[0].length
  }
  re += escapeRe(p.source.slice(last)) + '$'
  const m = new RegExp(re).exec(text)
  if (!m) return null
  let counter = 0
  let year: number | null = null
  let beyond = false
  order.forEach((kind, i) => {
    const v = m[i + 1]!
    if (kind === 'Y') year = Number(v)
    else {
      // Wider than the pattern is beyond the counter only when it is not mere zero padding.
      const trimmed = v.replace(/^0+(?=\d)/, '')
      if (v.length > p.width && trimmed.length > p.width) beyond = true
      else if (v.length > p.width) return
      counter = Number(trimmed)
    }
  })
  if (!beyond && m[order.indexOf('N') + 1]!.length !== p.width) return null
  return { counter, year, beyond }
}
