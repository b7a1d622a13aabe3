// The syntax of each EU member state's VAT number as VIES takes it (the European Commission's VIES FAQ, "VAT number
// format"), after the two-letter prefix. Only the shape is judged here; VIES judges whether the number exists.
// Kept by hand: the one package that offers it (jsvat 2.5) still refuses Belgian numbers starting with 1, issued
// since 2023, and would so leave real numbers unverified.

const SYNTAX: Readonly<Record<string, RegExp>> = Object.freeze({
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
})

/** Whether `number` (upper-case, no separators, no prefix) has the shape of a VAT number under VIES prefix `prefix`. */
export function fitsVatSyntax(prefix: string, number: string): boolean {
  const re = Object.prototype.hasOwnProperty.call(SYNTAX, prefix) ? SYNTAX[prefix] : undefined
  return re !== undefined && re.test(number)
}
