// Text: request strings whose length limits count characters of the value as stored, registered as a TypeBox kind.
import { Kind, Type, TypeRegistry, type TUnsafe } from '@sinclair/typebox'
import { storedChars } from './text'

export const TEXT_KIND = 'Text'

/** The words for a length outside a schema's limits, or null; `n` is counted by the caller's rule. */
export function lengthFault(s: { maxLength?: number; minLength?: number }, n: number): string | null {
  if (s.maxLength !== undefined && n > s.maxLength) return `must be at most ${s.maxLength} characters`
  if (s.minLength !== undefined && n < s.minLength)
    return s.minLength === 1 ? 'must not be empty' : `must be at least ${s.minLength} characters`
  return null
}

/** What the Text kind checks (characters of the value as stored), and what explain() says when it does not hold. */
export function textFault(s: { maxLength?: number; minLength?: number }, value: string): string | null {
  return lengthFault(s, storedChars(value))
}

TypeRegistry.Set(
  TEXT_KIND,
  (schema: any, value: unknown) => typeof value === 'string' && textFault(schema, value) === null,
)

/**
 * A request string whose limits count characters (code points) of the value as stored, trimmed: TypeBox's own
 * maxLength counts UTF-16 units (an emoji is two) and the untrimmed value. It stays `{type: string, maxLength}` in
 * the OpenAPI document, where JSON Schema counts characters too. Used only where the service trims (blank()).
 */
export function Text(opts: { maxLength: number; minLength?: number; description?: string }): TUnsafe<string> {
  return Type.Unsafe<string>({ [Kind]: TEXT_KIND, type: 'string', ...opts })
}
