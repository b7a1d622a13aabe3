// The sealing of secrets at rest: AES-256-GCM, a fresh nonce per value, bound to its purpose, refused under another key.
import { describe, expect, test } from 'bun:test'
import { isSealed, lockedBox, newKeyText, parseKey, secretBox } from './secret-box'

const key = parseKey(newKeyText())!

describe('secretBox', () => {
  test('a sealed value opens to itself, never shows the plain text, and two seals of one value differ', () => {
    const box = secretBox(key)
    const a = box.seal('whsec_abc', 'webhook-secret')
    const b = box.seal('whsec_abc', 'webhook-secret')
    expect(isSealed(a)).toBe(true)
    expect(a).not.toContain('abc')
    expect(a).not.toBe(b)
    expect(box.open(a, 'webhook-secret')).toBe('whsec_abc')
  })

  test('another key, another purpose or a changed byte does not open it', () => {
    const box = secretBox(key)
    const sealed = box.seal('smtp://u:p@h', 'smtp-url')
    expect(() => secretBox(parseKey(newKeyText())!).open(sealed, 'smtp-url')).toThrow('does not open')
    expect(() => box.open(sealed, 'webhook-secret')).toThrow('does not open')
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1)
    expect(() => box.open(flipped, 'smtp-url')).toThrow()
  })

  test('keys are 32 bytes as 64 hex digits or base64; anything else is no key', () => {
    expect(parseKey('00'.repeat(32))).toHaveLength(32)
    expect(parseKey(Buffer.alloc(32, 1).toString('base64'))).toHaveLength(32)
    expect(parseKey(Buffer.alloc(32, 1).toString('base64url'))).toHaveLength(32)
    expect(parseKey('short')).toBeNull()
    expect(parseKey('00'.repeat(31))).toBeNull()
  })

  test('before the key is loaded nothing can be sealed or opened', () => {
    expect(() => lockedBox.seal('x', 'smtp-url')).toThrow('not been loaded')
    expect(() => lockedBox.open(secretBox(key).seal('x', 'smtp-url'), 'smtp-url')).toThrow('not been loaded')
  })
})
