// Layers point one way (ARCHITECTURE rule 2, docs/architecture-notes.md): read from the source files themselves, so a
// new import across a layer fails here before it settles. Tests are left out: a test may drive a door to prove a rule.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

const ROOT = join(import.meta.dir, '..')

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (
      /\.tsx?$/.test(name) &&
      !/\.test\.tsx?$/.test(name) &&
      !/\.testkit\.ts$/.test(name) &&
      !name.endsWith('.d.ts')
    )
      out.push(path)
  }
  return out
}

// Static imports and re-exports (`from '…'`), side-effect imports (`import '…'`) and dynamic ones (`import('…')`).
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g

interface Edge {
  from: string
  /** The imported file or folder as a path from the repository root (src/…), or the package name. */
  to: string
}

function importsOf(file: string): Edge[] {
  const text = readFileSync(file, 'utf8')
  const from = relative(ROOT, file)
  return [...text.matchAll(SPECIFIER)].map((m) => {
    const spec = m[1]!
    return { from, to: spec.startsWith('.') ? normalize(relative(ROOT, join(dirname(file), spec))) : spec }
  })
}

const edges = sourceFiles(join(ROOT, 'src')).flatMap(importsOf)
const under = (path: string, ...dirs: string[]) => dirs.some((d) => path === d || path.startsWith(d + '/'))
const show = (bad: Edge[]) => bad.map((e) => `${e.from} -> ${e.to}`)

describe("module layering: the source files' own imports", () => {
  test('the walk sees the source: hundreds of imports, modules, platform and doors among them', () => {
    expect(edges.length).toBeGreaterThan(500)
    expect(edges.some((e) => under(e.from, 'src/modules'))).toBe(true)
    expect(edges.some((e) => under(e.from, 'src/platform'))).toBe(true)
    expect(edges.some((e) => under(e.from, 'src/doors'))).toBe(true)
  })

  test('modules, jobs and platform import no door, no CLI and not the app that mounts the doors', () => {
    const bad = edges.filter(
      (e) =>
        under(e.from, 'src/modules', 'src/jobs', 'src/platform') &&
        (under(e.to, 'src/doors', 'src/cli') || e.to === 'src/app'),
    )
    expect(show(bad)).toEqual([])
  })

  test("modules, jobs and platform use no door's framework (Elysia, the MCP SDK, the HTML kit); TypeBox is their schema language", () => {
    const framework = (to: string) =>
      to === 'elysia' ||
      to.startsWith('elysia/') ||
      to.startsWith('@modelcontextprotocol/') ||
      to.startsWith('@kitajs/')
    const bad = edges.filter((e) => under(e.from, 'src/modules', 'src/jobs', 'src/platform') && framework(e.to))
    expect(show(bad)).toEqual([])
  })

  test('no module imports the composition root (deps.ts): an operation reads its dependencies from the context it is given', () => {
    const bad = edges.filter((e) => under(e.from, 'src/modules') && e.to === 'src/deps')
    expect(show(bad)).toEqual([])
  })

  test('shared/ imports nothing else from src/', () => {
    const bad = edges.filter((e) => under(e.from, 'src/shared') && under(e.to, 'src') && !under(e.to, 'src/shared'))
    expect(show(bad)).toEqual([])
  })

  test("a door imports no module's service or repo: it runs operations of the table", () => {
    const bad = edges.filter(
      (e) => under(e.from, 'src/doors') && under(e.to, 'src/modules') && /\.(service|repo)$/.test(e.to),
    )
    expect(show(bad)).toEqual([])
  })

  test('adapters and db/ know no module, door or platform policy', () => {
    const bad = edges.filter(
      (e) =>
        under(e.from, 'src/adapters', 'src/db') && under(e.to, 'src/modules', 'src/doors', 'src/platform', 'src/cli'),
    )
    expect(show(bad)).toEqual([])
  })

  test('a module uses another module only through its index.ts', () => {
    const bad = edges.filter((e) => {
      if (!under(e.from, 'src/modules') || !under(e.to, 'src/modules')) return false
      const [, , own] = e.from.split('/')
      const [, , other, ...rest] = e.to.split('/')
      return own !== other && !(rest.length === 0 || (rest.length === 1 && rest[0] === 'index'))
    })
    expect(show(bad)).toEqual([])
  })

  test('the CLI reaches the doors only through app.ts, which mounts them (what a request did is read from platform/)', () => {
    const bad = edges.filter((e) => under(e.from, 'src/cli') && under(e.to, 'src/doors'))
    expect(show(bad)).toEqual([])
  })

  test("one API door: no src/http/ folder is left, and no door but the API imports the API door's pipeline or routes", () => {
    expect(edges.some((e) => under(e.from, 'src/http') || under(e.to, 'src/http'))).toBe(false)
    const inner = ['src/doors/api/pipeline', 'src/doors/api/routes', 'src/doors/api/route-helpers']
    const bad = edges.filter((e) => !under(e.from, 'src/doors/api') && e.from !== 'src/app.ts' && inner.includes(e.to))
    expect(show(bad)).toEqual([])
  })

  test('modules import one another without cycles (their *.operations.ts aside)', () => {
    // An operations file declares use cases for the table and may compose several modules, like the table itself.
    const graph = new Map<string, Set<string>>()
    for (const e of edges) {
      if (!under(e.from, 'src/modules') || !under(e.to, 'src/modules') || e.from.endsWith('.operations.ts')) continue
      const [a, b] = [e.from.split('/')[2]!, e.to.split('/')[2]!]
      if (a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b))
    }
    expect(graph.size).toBeGreaterThan(5)
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(graph.get(from) ?? [])].some((n) => n === to || (!seen.has(n) && (seen.add(n), reaches(n, to, seen))))
    expect([...graph.keys()].filter((m) => reaches(m, m)).sort()).toEqual([])
  })
})
