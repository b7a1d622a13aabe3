// The weight of the MCP tool list (issue 32: under 60 KB): `tools/list` as an Owner on a paid plan receives it (every
// tool of the table), against the same tools with their schemas spelled out whole, measured in the same run; where the
// bytes go (descriptions, arguments, answers, annotations) and the heaviest tools.
//
//   bun bench/mcp-list.ts [--top 12]
import { operations } from '../src/operations'
import { buildTools } from '../src/doors/mcp/tools'
import { compactList } from '../src/doors/mcp/compact'
import { argNumber } from './args'

const top = argNumber('top', 12)
const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v))
const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`

const tools = [...buildTools(operations).values()]
// The baseline: each tool with its operation's schemas whole and its refusal codes written out, as the list was first.
const whole = tools.map((t) => ({
  name: t.name,
  title: t.title,
  description: `${t.description}${t.refusals.length ? ` Refusal codes: ${t.refusals.join(', ')}.` : ''}`,
  inputSchema: t.inputSchema,
  ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
  annotations: t.annotations,
}))
const list = compactList(tools)

const wholeBytes = bytes({ tools: whole })
const listBytes = bytes({ tools: list })
console.log(`tools: ${list.length}`)
console.log(
  `spelled out whole (baseline): ${wholeBytes} bytes, ${kb(wholeBytes)}, ${kb(wholeBytes / whole.length)} a tool`,
)
console.log(`tools/list as sent:           ${listBytes} bytes, ${kb(listBytes)}, ${kb(listBytes / list.length)} a tool`)
console.log(
  `target: under 60,000 bytes: ${listBytes < 60_000 ? 'PASS' : 'FAIL'} (${60_000 - listBytes} bytes to spare)`,
)

const parts = { description: 0, inputSchema: 0, outputSchema: 0, annotations: 0 }
for (const t of list) {
  parts.description += bytes(t.description)
  parts.inputSchema += bytes(t.inputSchema)
  parts.outputSchema += t.outputSchema ? bytes(t.outputSchema) : 0
  parts.annotations += bytes(t.annotations)
}
const rest = listBytes - Object.values(parts).reduce((a, b) => a + b, 0)
console.log('\nwhere the bytes go (as sent):')
for (const [part, n] of Object.entries({ ...parts, 'names, titles, keys': rest }))
  console.log(`  ${part.padEnd(20)} ${String(n).padStart(7)} bytes  ${((100 * n) / listBytes).toFixed(0).padStart(3)}%`)

console.log(`\nheaviest ${top} tools (bytes: whole, description, inputSchema, outputSchema):`)
const rows = list
  .map((t) => [
    t.name,
    bytes(t),
    bytes(t.description),
    bytes(t.inputSchema),
    t.outputSchema ? bytes(t.outputSchema) : 0,
  ])
  .sort((a, b) => (b[1] as number) - (a[1] as number))
for (const r of rows.slice(0, top)) console.log(`  ${String(r[0]).padEnd(30)} ${r.slice(1).join('\t')}`)
