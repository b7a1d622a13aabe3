// ISO 11649 structured creditor references ("RF" + 2 check digits + up to 21 letters or digits): made from a
// document number, checked when read back from a bank statement. Pure: imports nothing else from src/.

/** Letters as ISO 7064 MOD 97-10 counts them: A = 10 … Z = 35; digits as themselves. */
function mod97(s: string): number {
  let m = 0
  for (const ch of s) {
    const c = ch.charCodeAt(0)
    if (c >= 48 && c <= 57) m = (m * 10 + (c - 48)) % 97
    else m = (m * 100 + (c - 55)) % 97
  }
  return m
}

/** What a reference may carry after its check digits: letters and digits only, 1 to 21 of them. */
const BODY = /^[A-Z0-9]{1,21}$/

/** The reference for a body of letters and digits (upper case), its check digits computed. */
export function creditorReference(body: string): string {
  if (!BODY.test(body)) throw new Error('a creditor reference carries 1 to 21 letters or digits')
  const check = 98 - mod97(`${body}RF00`)
  return `RF${String(check).padStart(2, '0')}${body}`
}

/** Whether `ref` (spaces allowed, any case, as people write it) is a well-formed reference with right check digits. */
export function isCreditorReference(ref: string): boolean {
  const s = ref.replace(/ /g, '').toUpperCase()
  if (!/^RF[0-9]{2}[A-Z0-9]{1,21}$/.test(s)) return false
  return mod97(`${s.slice(4)}${s.slice(0, 4)}`) === 1
}

/** The reference as machines compare it: no spaces, upper case. */
export function compactReference(ref: string): string {
  return ref.replace(/ /g, '').toUpperCase()
}

/** The reference as printed for people: groups of four (ISO 11649's presentation on paper). */
export function printedReference(ref: string): string {
  return compactReference(ref).replace(/(.{4})(?=.)/g, '$1 ')
}

/**
 * The body a document number gives: its letters and digits, upper case (`INV-2026-0001` → `INV20260001`); the last 21
 * when longer, since the counter, which tells documents apart, is at the end of every default pattern.
 */
export function referenceBodyOf(documentNumber: string): string {
  const alnum = documentNumber.toUpperCase().replace(/[^A-Z0-9]/g, '')
  return alnum.slice(-21)
}

/**
 * Every well-formed reference written in free text (a bank transfer's remittance line), spaces inside allowed: the
 * longest reading of each that checks, so `RF18 5390 0754 7034` and `RF18539007547034` read the same.
 */
export function referencesIn(text: string): string[] {
  const found: string[] = []
  for (const m of text.toUpperCase().matchAll(/RF ?[0-9]{2}(?: ?[A-Z0-9]){1,21}/g)) {
    const s = m[0].replace(/ /g, '')
    for (let end = s.length; end >= 5; end--) {
      if (isCreditorReference(s.slice(0, end))) {
        found.push(s.slice(0, end))
        break
      }
    }
  }
  return found
}
