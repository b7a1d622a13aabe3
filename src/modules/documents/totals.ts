// Document money, pure: Line nets, VAT per band (category and rate) as EN16931 computes it, totals, minor units.
import { Dec, format, round, stored, toMinor, type Decimal } from '../../shared/money'

/** Each Line net and the Lines total must stay below this (the contract's 10^15 limit). */
export const AMOUNT_CEILING = new Dec('1000000000000000')

export interface LineMoney {
  quantity: string
  unitPrice: string
  vatRate: string
  vatCategory: string
}

export interface Band {
  category: string
  rate: string
  net: string
  vat: string
  netMinor: string
  vatMinor: string
}

export interface Totals {
  lineNets: string[]
  bands: Band[]
  net: string
  vat: string
  total: string
  netMinor: string
  vatMinor: string
  totalMinor: string
}

/** An exact amount at `scale` as an integer count of minor units, written as text (it may pass 2^53). */
export { toMinor } from '../../shared/money'

export function lineNet(l: Pick<LineMoney, 'quantity' | 'unitPrice'>, scale: number): Decimal {
  return round(stored(l.quantity).times(stored(l.unitPrice)), scale)
}

const CATEGORY_ORDER = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M']

/** Where a VAT category stands among bands of one rate (S, Z, E, AE, K, G, O); an unknown one last. */
export function categoryRank(category: string): number {
  const i = CATEGORY_ORDER.indexOf(category)
  return i < 0 ? CATEGORY_ORDER.length : i
}

/** A document's total columns from its Totals: net, VAT and total, as written and in minor units. */
export function totalColumns(t: Totals) {
  return {
    netTotal: t.net,
    vatTotal: t.vat,
    total: t.total,
    netMinor: t.netMinor,
    vatMinor: t.vatMinor,
    totalMinor: t.totalMinor,
  }
}

/** Net per Line, VAT per band rounded half away from zero, and the totals; bands highest rate first. */
export function computeTotals(lines: LineMoney[], scale: number): Totals {
  const nets = lines.map((l) => lineNet(l, scale))
  const byBand = new Map<string, { category: string; rate: Decimal; net: Decimal }>()
  lines.forEach((l, i) => {
    const rate = stored(l.vatRate)
    const key = `${l.vatCategory}|${rate.toFixed(2)}`
    const band = byBand.get(key) ?? { category: l.vatCategory, rate, net: new Dec('0') }
    band.net = band.net.plus(nets[i]!)
    byBand.set(key, band)
  })
  const bands = [...byBand.values()]
    .sort((a, b) => b.rate.cmp(a.rate) || categoryRank(a.category) - categoryRank(b.category))
    .map((b) => {
      const vat = round(b.net.times(b.rate).div('100'), scale)
      return { category: b.category, rate: b.rate.toFixed(2), net: b.net, vat }
    })
  const net = nets.reduce((s, n) => s.plus(n), new Dec('0'))
  const vat = bands.reduce((s, b) => s.plus(b.vat), new Dec('0'))
  const total = net.plus(vat)
  return {
    lineNets: nets.map((n) => format(n, scale)),
    bands: bands.map((b) => ({
      category: b.category,
      rate: b.rate,
      net: format(b.net, scale),
      vat: format(b.vat, scale),
      netMinor: toMinor(b.net, scale),
      vatMinor: toMinor(b.vat, scale),
    })),
    net: format(net, scale),
    vat: format(vat, scale),
    total: format(total, scale),
    netMinor: toMinor(net, scale),
    vatMinor: toMinor(vat, scale),
    totalMinor: toMinor(total, scale),
  }
}
