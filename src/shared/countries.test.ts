import { test, expect } from 'bun:test'
import { COUNTRY_CODES, VIES_PREFIX, isCountry, viesPrefixFor } from './countries'

test('all 249 officially assigned ISO 3166-1 alpha-2 codes are known', () => {
  expect(COUNTRY_CODES.size).toBe(249)
  for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/)
})

test('representative assigned codes, including territories and recent additions, are countries', () => {
  for (const code of [
    'DE',
    'GR',
    'GB',
    'US',
    'JP',
    'AX',
    'AQ',
    'BQ',
    'CW',
    'SX',
    'SS',
    'BL',
    'MF',
    'PS',
    'TW',
    'UM',
    'BV',
    'HM',
    'EH',
  ]) {
    expect({ code, ok: isCountry(code) }).toEqual({ code, ok: true })
  }
})

test('reserved, withdrawn, user-assigned, lower-case and unknown codes are refused', () => {
  for (const code of ['EU', 'UK', 'EL', 'XI', 'XK', 'AN', 'CS', 'YU', 'ZZ', '', 'D', 'DEU', 'de', 'toString']) {
    expect({ code, ok: isCountry(code) }).toEqual({ code, ok: false })
  }
})

test('VIES covers exactly the 27 EU member states', () => {
  expect(Object.keys(VIES_PREFIX).sort()).toEqual([
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
  ])
  for (const country of Object.keys(VIES_PREFIX)) expect(isCountry(country)).toBe(true)
})

test('GR maps to VIES prefix EL; every other member state uses its own code', () => {
  expect(viesPrefixFor('GR')).toBe('EL')
  for (const [country, prefix] of Object.entries(VIES_PREFIX)) {
    if (country !== 'GR') expect(prefix).toBe(country)
  }
  expect(viesPrefixFor('DE')).toBe('DE')
  expect(viesPrefixFor('HR')).toBe('HR')
})

test('countries outside VIES, and the prefix EL itself, get no VIES prefix', () => {
  for (const code of ['GB', 'CH', 'NO', 'US', 'EL', 'XI', 'EU', 'gr', '', 'toString', '__proto__']) {
    expect({ code, prefix: viesPrefixFor(code) }).toEqual({ code, prefix: null })
  }
})

test('the VIES table cannot be modified', () => {
  expect(Object.isFrozen(VIES_PREFIX)).toBe(true)
})
