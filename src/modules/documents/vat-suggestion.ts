// What the application suggests for a new Product's or Line's VAT: the rate the Business uses, and K or AE for a
// business Client in another EU country.
import type { Queryable } from '../../db/client'
import { isEuMember, standardVatRate } from '../../shared/countries'
import { productVatRateCounts } from '../products'
import { lineVatRateCounts } from './documents.repo'

/** How far back the count looks: the newest Products and documents say what the Business charges now. */
const RECENT = 500

/**
 * The VAT rate a new Product or Line starts with ("19.00"): the rate above 0 the Business uses most on its newest
 * Products and Lines (a tie goes to the higher rate), else its country's standard rate; null for a Non-VAT Payer, whose
 * Lines charge no VAT, or when neither is known. Rate 0 is left out of the count: it was every new Product's rate
 * before this suggestion existed, and a VAT-registered Business's 0 goes with a category chosen on purpose.
 */
export async function usualVatRate(
  q: Queryable,
  business: { id: number; country: string; isVatPayer: boolean },
): Promise<string | null> {
  if (!business.isVatPayer) return null
  const [products, lines] = await Promise.all([
    productVatRateCounts(q, business.id, RECENT),
    lineVatRateCounts(q, business.id, RECENT),
  ])
  const uses = new Map<string, number>()
  for (const r of [...products, ...lines]) uses.set(r.rate, (uses.get(r.rate) ?? 0) + Number(r.uses))
  // Rates are compared as numbers only to order them; the rate handed on is the stored decimal string.
  const best = [...uses].sort((a, b) => b[1] - a[1] || Number(b[0]) - Number(a[0]))[0]
  return best ? best[0] : standardVatRate(business.country)
}

/**
 * Whether a supply to this Client is usually outside the seller's VAT: a VAT-registered seller in the EU, a Client in
 * another EU member state with a VAT number. Such a Line is then K (an intra-EU supply of goods) or AE (a service,
 * the Client accounts for the VAT by reverse charge), which the person chooses: the Line does not say which it is.
 */
export function crossBorderEuBusiness(
  seller: { country: string; isVatPayer: boolean },
  client: { country: string; vatNumber: string | null },
): boolean {
  return (
    seller.isVatPayer &&
    isEuMember(seller.country) &&
    isEuMember(client.country) &&
    client.country !== seller.country &&
    !!client.vatNumber?.trim()
  )
}
