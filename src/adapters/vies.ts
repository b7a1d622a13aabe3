// VIES: asks the European Commission's VAT number check (REST, check-vat-number) whether a number is valid.

export interface ViesClient {
  /** true when VIES confirms the number; false when it denies it or cannot be asked in time. */
  check(countryCode: string, vatNumber: string): Promise<boolean>
}

export function httpViesClient(url: string, timeoutMs = 3000): ViesClient {
  return {
    async check(countryCode, vatNumber) {
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ countryCode, vatNumber }),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        })
        if (!res.ok) return false
        const body = (await res.json()) as { valid?: unknown }
        return body.valid === true
      } catch {
        // Unreachable, slow or garbled VIES must never block saving a Client: the number stays unverified.
        return false
      }
    },
  }
}

/** A VIES stand-in for tests and for running with VIES switched off: confirms the numbers it was given. */
export class FakeVies implements ViesClient {
  readonly calls: Array<{ countryCode: string; vatNumber: string }> = []
  constructor(private readonly valid: Set<string> = new Set()) {}
  async check(countryCode: string, vatNumber: string): Promise<boolean> {
    this.calls.push({ countryCode, vatNumber })
    return this.valid.has(countryCode + vatNumber)
  }
}
