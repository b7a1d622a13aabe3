// The tool list as `tools/list` sends it, compact (issue 32: it weighed 177 KB, about 45k tokens of an assistant's
// context): the same tools with complete argument schemas, each schema's repeated parts defined once in its `$defs`,
// nullable fields written `type: [T, "null"]`, a field's description and a list of refusal codes said once in the list,
// and each answer's shape outlined (its fields by name) rather than spelled out. Built from whatever the table holds, so
// an operation added later comes out compact too.

type Node = Record<string, unknown>
type Json = unknown

const isNode = (v: Json): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The schema positions below a schema node: what may be replaced by a `$ref` (a `properties` map itself may not). */
function childSchemas(node: Node, visit: (get: () => Json, set: (v: Json) => void) => void): void {
  const props = node.properties
  if (isNode(props))
    for (const k of Object.keys(props))
      visit(
        () => props[k],
        (v) => (props[k] = v),
      )
  for (const key of ['items', 'additionalProperties', 'not'] as const)
    if (isNode(node[key]))
      visit(
        () => node[key],
        (v) => (node[key] = v),
      )
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key]
    if (Array.isArray(list))
      list.forEach((_, i) =>
        visit(
          () => list[i],
          (v) => (list[i] = v),
        ),
      )
  }
  const defs = node.$defs
  if (isNode(defs))
    for (const k of Object.keys(defs))
      visit(
        () => defs[k],
        (v) => (defs[k] = v),
      )
}

function walk(node: Json, fn: (n: Node) => void): void {
  if (!isNode(node)) return
  fn(node)
  childSchemas(node, (get) => walk(get(), fn))
}

/** `anyOf: [S, {type: "null"}]` as S with `type: [S.type, "null"]`: the same values, a fifth of the text. */
function mergeNullable(schema: Json): void {
  walk(schema, (n) => {
    const list = n.anyOf
    if (!Array.isArray(list) || list.length !== 2) return
    const nullAt = list.findIndex((m) => isNode(m) && m.type === 'null' && Object.keys(m).length === 1)
    if (nullAt < 0) return
    const other = list[1 - nullAt]
    if (!isNode(other) || typeof other.type !== 'string' || 'anyOf' in other || 'const' in other || 'enum' in other)
      return
    delete n.anyOf
    // The member's keywords (pattern, properties, ...) apply to its type only, so null still passes.
    for (const [k, v] of Object.entries(other)) if (!(k in n)) n[k] = v
    n.type = [other.type, 'null']
  })
}

/**
 * A choice of fixed strings as `enum` rather than an `anyOf` of consts, and the service's own markers (`x-decimal`,
 * read by its error words) left out: they say nothing to a client.
 */
function plainWords(schema: Json): void {
  walk(schema, (n) => {
    for (const k of Object.keys(n)) if (k.startsWith('x-')) delete n[k]
    const list = n.anyOf
    if (
      Array.isArray(list) &&
      list.length > 1 &&
      list.every((m) => isNode(m) && m.type === 'string' && typeof m.const === 'string' && Object.keys(m).length === 2)
    ) {
      delete n.anyOf
      n.type = 'string'
      n.enum = list.map((m) => (m as Node).const)
    }
  })
}

/** Drops a description the list already said (at an earlier field or tool): the first one stands for all. */
function sayOnce(schema: Json, said: Set<string>): void {
  walk(schema, (n) => {
    const props = n.properties
    if (!isNode(props)) return
    for (const field of Object.values(props)) {
      if (!isNode(field) || typeof field.description !== 'string') continue
      if (said.has(field.description)) delete field.description
      else said.add(field.description)
    }
  })
}

/**
 * A named shape of an answer (a schema with a `title`: Document, Client, Line, the Error object) is declared whole at
 * the first tool whose schema holds it; a later tool names it (its `title` and type), as
 * OpenAPI names a component: a Document is described once, not at each of the nine tools that answer one.
 */
function nameOnce(schema: Node, tool: string, declaredBy: Map<string, string>): void {
  const seen = new Set<string>()
  const visit = (node: Json, set: ((v: Json) => void) | null): void => {
    if (!isNode(node)) return
    const title = node.title
    if (typeof title === 'string' && set) {
      const first = declaredBy.get(title)
      if (first && first !== tool) {
        set({ title, type: node.type })
        return
      }
      if (!first) seen.add(title)
    }
    childSchemas(node, (get, put) => visit(get(), put))
  }
  // The root is the tool's own answer object (success or error); its members are the named shapes.
  visit(schema, null)
  for (const title of seen) declaredBy.set(title, tool)
}

/**
 * An answer's schema as the list gives it: its shape, not its every leaf. Objects keep their title, type and the fields
 * they always hold (`required`), and nested objects, lists and choices are outlined in turn; a leaf field (a string, a
 * number, an amount) is named by `required` alone, its type and words being the API's. Only keywords are dropped, never
 * added, so every answer the full schema admits passes this one too (the SDK's Client checks each answer against it).
 * The full shapes cost 31 KB of a 83 KB list of 58 tools; the arguments, which an assistant must get right before the
 * call, keep everything.
 */
function outline(node: Json, within?: Json): Node | null {
  if (!isNode(node)) return null
  const out: Node = {}
  if (typeof node.title === 'string') out.title = node.title
  // A member of a choice whose own type is the same says it once (the answer is an object either way).
  if (node.type !== undefined && node.type !== within) out.type = node.type
  if (isNode(node.properties)) {
    if (Array.isArray(node.required) && node.required.length > 0) out.required = node.required
    const fields: Node = {}
    for (const [name, field] of Object.entries(node.properties)) {
      const shape = outline(field)
      if (shape) fields[name] = shape
    }
    if (Object.keys(fields).length > 0) out.properties = fields
    return out
  }
  const items = outline(node.items)
  if (items) return { ...out, items }
  if (Array.isArray(node.anyOf)) {
    // A member with nothing to outline admits anything, so the choice stays as wide as the full schema's.
    const members = node.anyOf.map((m) => outline(m, node.type) ?? {})
    if (members.some((m) => Object.keys(m).length > 0)) return { ...out, anyOf: members }
  }
  // A named shape declared at an earlier tool keeps its name.
  return 'title' in out ? out : null
}

/** The fields each named shape always holds, as its outline first said them (Error: `error`). */
function learnFields(node: Json, fields: Map<string, unknown>): void {
  walk(node, (n) => {
    if (typeof n.title === 'string' && Array.isArray(n.required) && !fields.has(n.title))
      fields.set(n.title, n.required)
  })
}

/**
 * A choice is as strict as its loosest member: where a tool spells its answer out, a mention beside it (the Error,
 * declared at an earlier tool) keeps the fields that shape always holds, so an answer missing a field of the one is
 * not taken for the other. Where the answer itself is only named, the choice judges no fields and stays short.
 */
function judgeChoice(output: Node, fields: Map<string, unknown>): void {
  const members = output.anyOf
  if (!Array.isArray(members) || !members.some((m) => isNode(m) && 'required' in m)) return
  for (const m of members)
    if (isNode(m) && typeof m.title === 'string' && !('required' in m) && fields.has(m.title))
      m.required = fields.get(m.title)
}

/** Repeats shorter than this stay where they are: a `$ref` and its definition would cost more than they save. */
const MIN_SHARED = 48

/**
 * Each subschema that occurs more than once in a schema, largest saving first, defined once under `$defs` and named by
 * `$ref` where it occurred (a Document's amounts, its Lines' and its actions' shapes).
 */
function shareRepeats(schema: Node): void {
  const defs: Node = {}
  for (let n = 1; ; n++) {
    const counts = new Map<string, number>()
    walk(schema, (node) =>
      childSchemas(node, (get) => {
        const text = JSON.stringify(get())
        if (text.length >= MIN_SHARED) counts.set(text, (counts.get(text) ?? 0) + 1)
      }),
    )
    let best: { text: string; saving: number } | null = null
    for (const [text, count] of counts) {
      const saving = (count - 1) * text.length - count * 20
      if (count > 1 && saving > 0 && (!best || saving > best.saving)) best = { text, saving }
    }
    if (!best) break
    const parsed = JSON.parse(best.text) as Node
    const name = typeof parsed.title === 'string' && !(parsed.title in defs) ? parsed.title : `d${n}`
    defs[name] = parsed
    const ref = { $ref: `#/$defs/${name}` }
    walk(schema, (node) =>
      childSchemas(node, (get, set) => {
        if (JSON.stringify(get()) === best!.text) set({ ...ref })
      }),
    )
  }
  if (Object.keys(defs).length > 0) schema.$defs = defs
}

/**
 * The refusal codes a tool may answer, as its description's last sentence: the codes its words do not already name,
 * and the whole list of an earlier tool said by that tool's name when this one answers all of them too (a Send answers
 * every code of an Issue).
 */
function refusalWords(
  tool: string,
  description: string,
  codes: readonly string[],
  earlier: ReadonlyArray<{ name: string; codes: ReadonlySet<string> }>,
): string {
  const unsaid = codes.filter((c) => !new RegExp(`\\b${c}\\b`).test(description))
  let named: { name: string; codes: ReadonlySet<string> } | null = null
  for (const e of earlier) {
    const naming = [...e.codes].filter((c) => unsaid.includes(c)).length
    if (e.name !== tool && naming > 1 && [...e.codes].every((c) => codes.includes(c)))
      if (!named || e.codes.size > named.codes.size) named = e
  }
  const own = unsaid.filter((c) => !named?.codes.has(c))
  const words = [...own, ...(named ? [`${own.length > 0 ? 'and ' : ''}those of ${named.name}`] : [])]
  if (words.length === 0) return description
  return `${description} Refusal codes: ${words.join(', ')}.`
}

export interface ListedTool {
  name: string
  title: string
  description: string
  inputSchema: { type: 'object' }
  outputSchema?: { type: 'object' }
  annotations: Record<string, unknown>
}

/** The tools as `tools/list` sends them, in the given order (descriptions are said at their first tool). */
export function compactList(
  tools: ReadonlyArray<{
    name: string
    title: string
    description: string
    refusals?: readonly string[]
    inputSchema: Record<string, unknown>
    outputSchema?: Record<string, unknown>
    annotations: Record<string, unknown>
  }>,
): ListedTool[] {
  /** Each earlier tool's refusal codes, for a later tool that answers all of them to name. */
  const refusing: Array<{ name: string; codes: ReadonlySet<string> }> = []
  const said = new Set<string>()
  /** Named shapes (Document, Client, Line, Error, ...) by the tool that declared them first. */
  const declaredBy = new Map<string, string>()
  /** The fields of each named shape an answer has outlined. */
  const fields = new Map<string, unknown>()
  return tools.map((t) => {
    const input = structuredClone(t.inputSchema)
    nameOnce(input, t.name, declaredBy)
    plainWords(input)
    mergeNullable(input)
    shareRepeats(input)
    sayOnce(input, said)
    const codes = t.refusals ?? []
    const description = refusalWords(t.name, t.description, codes, refusing)
    if (codes.length > 0) refusing.push({ name: t.name, codes: new Set(codes) })
    let output: Node | undefined
    if (t.outputSchema) {
      const full = structuredClone(t.outputSchema)
      nameOnce(full, t.name, declaredBy)
      mergeNullable(full)
      output = outline(full) ?? { type: 'object' }
      learnFields(output, fields)
      judgeChoice(output, fields)
      shareRepeats(output)
    }
    const { title: _title, ...annotations } = t.annotations
    return {
      name: t.name,
      title: t.title,
      description,
      inputSchema: input as { type: 'object' },
      ...(output ? { outputSchema: output as { type: 'object' } } : {}),
      // The tool's title, said once.
      annotations,
    }
  })
}
