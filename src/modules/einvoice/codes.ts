// The code lists the EN16931 export uses: VATEX exemption codes and texts, UN/ECE Rec 20 units, UNCL 4461 payment
// means, UNCL 5305 VAT categories, and the SEPA countries that decide between payment means 58 and 30.

/** UNCL 5305, the EN16931 subset (BR-CL-17, BR-CL-18). */
export const VAT_CATEGORY_CODES: ReadonlySet<string> = new Set(['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M', 'B'])

/** UNCL 4461 payment means the export writes or a receiver commonly meets (BR-CL-16). */
export const PAYMENT_MEANS_CODES: ReadonlySet<string> = new Set([
  '1',
  '10',
  '20',
  '30',
  '31',
  '42',
  '48',
  '49',
  '54',
  '55',
  '57',
  '58',
  '59',
  '68',
  '97',
  'ZZZ',
])

/** Credit transfer codes that need a payment account identifier (BR-50, BR-61). */
export const CREDIT_TRANSFER_CODES: ReadonlySet<string> = new Set(['30', '58'])

/** The CEF VATEX code list as the EN16931 1.3.x rule set inlines it (BR-CL-22). */
const VATEX_LIST = `VATEX-EU-79-C VATEX-EU-132 VATEX-EU-132-1A VATEX-EU-132-1B VATEX-EU-132-1C VATEX-EU-132-1D
VATEX-EU-132-1E VATEX-EU-132-1F VATEX-EU-132-1G VATEX-EU-132-1H VATEX-EU-132-1I VATEX-EU-132-1J VATEX-EU-132-1K
VATEX-EU-132-1L VATEX-EU-132-1M VATEX-EU-132-1N VATEX-EU-132-1O VATEX-EU-132-1P VATEX-EU-132-1Q VATEX-EU-135-1
VATEX-EU-143 VATEX-EU-143-1A VATEX-EU-143-1B VATEX-EU-143-1C VATEX-EU-143-1D VATEX-EU-143-1E VATEX-EU-143-1F
VATEX-EU-143-1FA VATEX-EU-143-1G VATEX-EU-143-1H VATEX-EU-143-1I VATEX-EU-143-1J VATEX-EU-143-1K VATEX-EU-143-1L
VATEX-EU-144 VATEX-EU-146-1E VATEX-EU-148 VATEX-EU-148-A VATEX-EU-148-B VATEX-EU-148-C VATEX-EU-148-D VATEX-EU-148-E
VATEX-EU-148-F VATEX-EU-148-G VATEX-EU-151 VATEX-EU-151-1A VATEX-EU-151-1AA VATEX-EU-151-1B VATEX-EU-151-1C
VATEX-EU-151-1D VATEX-EU-151-1E VATEX-EU-153 VATEX-EU-159 VATEX-EU-309 VATEX-EU-D VATEX-EU-F VATEX-EU-I VATEX-EU-J
VATEX-EU-G VATEX-EU-O VATEX-EU-IC VATEX-EU-AE VATEX-FR-FRANCHISE VATEX-FR-CNWVAT VATEX-FR-AE VATEX-FR-CGI261-1
VATEX-FR-CGI261-2 VATEX-FR-CGI261-3 VATEX-FR-CGI261-4 VATEX-FR-CGI261-5 VATEX-FR-CGI261-7 VATEX-FR-CGI261-8
VATEX-FR-CGI261A VATEX-FR-CGI261B VATEX-FR-CGI261C-1 VATEX-FR-CGI261C-2 VATEX-FR-CGI261C-3 VATEX-FR-CGI261D-1
VATEX-FR-CGI261D-1BIS VATEX-FR-CGI261D-2 VATEX-FR-CGI261D-3 VATEX-FR-CGI261D-4 VATEX-FR-CGI261E-1 VATEX-FR-CGI261E-2
VATEX-FR-CGI277A VATEX-FR-CGI275 VATEX-FR-298SEXDECIESA VATEX-FR-CGI295`

export const VATEX_CODES: ReadonlySet<string> = new Set(VATEX_LIST.split(/\s+/))

/** The standard words of the categories whose breakdown must carry a reason meaning that category (BR-AE/IC/G/O-10). */
export const CATEGORY_REASON: Readonly<Record<string, { codes: readonly string[]; text: string }>> = {
  AE: { codes: ['VATEX-EU-AE', 'VATEX-FR-AE'], text: 'Reverse charge' },
  K: { codes: ['VATEX-EU-IC'], text: 'Intra-community supply' },
  G: { codes: ['VATEX-EU-G'], text: 'Export outside the EU' },
  O: { codes: ['VATEX-EU-O'], text: 'Not subject to VAT' },
}

const FIXED_TEXTS: Readonly<Record<string, string>> = {
  'VATEX-EU-AE': 'Reverse charge',
  'VATEX-FR-AE': 'Reverse charge',
  'VATEX-EU-IC': 'Intra-community supply',
  'VATEX-EU-G': 'Export outside the EU',
  'VATEX-EU-O': 'Not subject to VAT',
  'VATEX-EU-D': 'Intra-Community acquisition from second hand means of transport',
  'VATEX-EU-F': 'Intra-Community acquisition of second hand goods',
  'VATEX-EU-I': 'Intra-Community acquisition of works of art',
  'VATEX-EU-J': 'Intra-Community acquisition of collectors items and antiques',
  'VATEX-EU-309': 'Travel agents VAT scheme',
  'VATEX-FR-FRANCHISE': 'France domestic VAT franchise in base',
  'VATEX-FR-CNWVAT': 'France domestic Credit Notes without VAT, due to supplier forfeit of VAT for discount',
}

/** The exemption reason text (BT-120) written beside a VATEX code; null for a code outside the list. */
export function vatexText(code: string): string | null {
  if (!VATEX_CODES.has(code)) return null
  const fixed = FIXED_TEXTS[code]
  if (fixed) return fixed
  // VATEX-EU-<article>[-<section><point>] names a place in Council Directive 2006/112/EC.
  const eu = /^VATEX-EU-(\d+)(?:-(\d*)([A-Z]*))?$/.exec(code)
  if (eu) {
    const [, article, section, point] = eu
    const where = [
      `article ${article}`,
      section ? `section ${section}` : null,
      point ? `point (${point.toLowerCase()})` : null,
    ]
      .filter(Boolean)
      .join(', ')
    return `Exempt based on ${where} of Council Directive 2006/112/EC`
  }
  const fr = /^VATEX-FR-(?:CGI)?(.+)$/.exec(code)
  return `Exempt based on article ${fr ? fr[1] : code} of the French tax code (CGI)`
}

/** UN/ECE Recommendation 20 (with Rec 21 packaging) codes the export writes or accepts as typed (BR-CL-23). */
export const UNIT_CODES: ReadonlySet<string> = new Set([
  'C62',
  'H87',
  'EA',
  'NAR',
  'NPR',
  'PR',
  'SET',
  'DZN',
  'LS',
  'E48',
  'ZZ',
  'SEC',
  'MIN',
  'HUR',
  'DAY',
  'WEE',
  'MON',
  'QAN',
  'ANN',
  'MGM',
  'GRM',
  'KGM',
  'TNE',
  'LBR',
  'ONZ',
  'MLT',
  'CLT',
  'LTR',
  'MTQ',
  'GLL',
  'MMT',
  'CMT',
  'MTR',
  'KMT',
  'INH',
  'FOT',
  'YRD',
  'SMI',
  'MTK',
  'HAR',
  'KWH',
  'MWH',
  'KWT',
  '4L',
  'E34',
  'E35',
  'XPK',
  'XBX',
  'XPX',
  'XBG',
  'XCT',
])

const UNIT_WORDS: Readonly<Record<string, string>> = {
  pcs: 'C62',
  pc: 'C62',
  piece: 'C62',
  pieces: 'C62',
  unit: 'C62',
  units: 'C62',
  item: 'C62',
  items: 'C62',
  ea: 'C62',
  each: 'C62',
  x: 'C62',
  pair: 'PR',
  pairs: 'PR',
  set: 'SET',
  sets: 'SET',
  dozen: 'DZN',
  'lump sum': 'LS',
  lumpsum: 'LS',
  flat: 'LS',
  service: 'E48',
  services: 'E48',
  s: 'SEC',
  sec: 'SEC',
  second: 'SEC',
  seconds: 'SEC',
  min: 'MIN',
  mins: 'MIN',
  minute: 'MIN',
  minutes: 'MIN',
  h: 'HUR',
  hr: 'HUR',
  hrs: 'HUR',
  hour: 'HUR',
  hours: 'HUR',
  std: 'HUR',
  stunde: 'HUR',
  stunden: 'HUR',
  d: 'DAY',
  day: 'DAY',
  days: 'DAY',
  tag: 'DAY',
  tage: 'DAY',
  wk: 'WEE',
  week: 'WEE',
  weeks: 'WEE',
  mo: 'MON',
  month: 'MON',
  months: 'MON',
  monat: 'MON',
  quarter: 'QAN',
  quarters: 'QAN',
  yr: 'ANN',
  year: 'ANN',
  years: 'ANN',
  jahr: 'ANN',
  mg: 'MGM',
  g: 'GRM',
  gram: 'GRM',
  grams: 'GRM',
  kg: 'KGM',
  kilo: 'KGM',
  kilogram: 'KGM',
  kilograms: 'KGM',
  t: 'TNE',
  tonne: 'TNE',
  tonnes: 'TNE',
  ton: 'TNE',
  tons: 'TNE',
  lb: 'LBR',
  lbs: 'LBR',
  oz: 'ONZ',
  ml: 'MLT',
  cl: 'CLT',
  l: 'LTR',
  liter: 'LTR',
  liters: 'LTR',
  litre: 'LTR',
  litres: 'LTR',
  m3: 'MTQ',
  'm³': 'MTQ',
  gal: 'GLL',
  gallon: 'GLL',
  mm: 'MMT',
  cm: 'CMT',
  m: 'MTR',
  meter: 'MTR',
  meters: 'MTR',
  metre: 'MTR',
  metres: 'MTR',
  km: 'KMT',
  in: 'INH',
  inch: 'INH',
  ft: 'FOT',
  foot: 'FOT',
  feet: 'FOT',
  yd: 'YRD',
  mi: 'SMI',
  mile: 'SMI',
  miles: 'SMI',
  m2: 'MTK',
  'm²': 'MTK',
  sqm: 'MTK',
  ha: 'HAR',
  kwh: 'KWH',
  mwh: 'MWH',
  kw: 'KWT',
  mb: '4L',
  gb: 'E34',
  tb: 'E35',
  pack: 'XPK',
  package: 'XPK',
  packages: 'XPK',
  pkg: 'XPK',
  box: 'XBX',
  boxes: 'XBX',
  pallet: 'XPX',
  pallets: 'XPX',
  bag: 'XBG',
  bags: 'XBG',
  carton: 'XCT',
  cartons: 'XCT',
}

/**
 * The Rec 20 code of a Line's unit: a code typed as such, a known word, else C62 ("one"), since a Line's unit is
 * free text and a count of one is what an unknown word (licence, seat, visit) bills.
 */
export function unitCodeOf(unit: string): string {
  const typed = unit.trim()
  if (UNIT_CODES.has(typed)) return typed
  return UNIT_WORDS[typed.toLowerCase().replace(/\.$/, '')] ?? 'C62'
}

/** Countries of the SEPA scheme: a EUR transfer to an IBAN of one of them is a SEPA credit transfer (code 58). */
export const SEPA_COUNTRIES: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'IS',
  'LI',
  'NO',
  'CH',
  'GB',
  'MC',
  'SM',
  'VA',
  'AD',
  'GI',
  'AL',
  'MD',
  'ME',
  'MK',
  'RS',
  'GF',
  'GP',
  'MQ',
  'YT',
  'RE',
  'BL',
  'MF',
  'PM',
  'AX',
  'GG',
  'JE',
  'IM',
])
