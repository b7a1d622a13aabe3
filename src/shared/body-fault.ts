// What no body of this service may hold, whichever door it came through: a NUL character, or nesting deeper than any body.

/** Deeper nesting than any body of this API has (a Line's fields sit three levels down) is refused, not walked. */
const MAX_BODY_DEPTH = 32

/**
 * The field path (`lines.0.description`) of the first string holding U+0000, `"body"` for a body nested deeper than
 * any this API takes, or null. Walked with its own stack: a 100 KB body of nested arrays must not exhaust the call
 * stack (that was a 500).
 */
export function bodyFault(body: unknown): { at: string; message: string } | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }]
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { at: path || 'body', message: 'must not contain the NUL character' }
      continue
    }
    if (!value || typeof value !== 'object') continue
    if (depth >= MAX_BODY_DEPTH) return { at: 'body', message: `is nested more than ${MAX_BODY_DEPTH} levels deep` }
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value)
    // Pushed in reverse so the first field is looked at first, as the request wrote them.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, v] = entries[i]!
      stack.push({ value: v, path: path ? `${path}.${k}` : k, depth: depth + 1 })
    }
  }
  return null
}
