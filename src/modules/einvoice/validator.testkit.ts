// Test kit: runs the official rule sets (../shared/validators/validate, Java + Saxon) once over a batch of files and
// answers each file's checks, so a test file pays the JVM start once, not per document.
import { resolve } from 'node:path'

/** The validator script, beside the repository in ../shared (as CI lays it out). */
const VALIDATE = resolve(import.meta.dir, '../../../../shared/validators/validate')

export interface CheckResult {
  fatal: number
  warnings: number
  /** Fatal rule ids (warnings end in "(w)"), as the script prints them. */
  ids: string[]
}

/** file → check name (xsd, en16931, xrechnung, peppol, xml) → result. */
export type Validation = Map<string, Map<string, CheckResult>>

/**
 * Validates every file with `--profile auto` (xsd, en16931, and the CIUS the file's CustomizationID names) in one
 * run of the script; a file the script printed nothing for is missing from the answer, which a test then fails on.
 */
export function validateFiles(files: string[]): Validation {
  const r = Bun.spawnSync([VALIDATE, '--profile', 'auto', ...files], {
    env: { ...process.env, VALIDATE_NO_INSTALL: '1' },
  })
  if (r.exitCode === 2)
    throw new Error(`validate could not run (${files.length} files): ${r.stderr.toString()} ${r.stdout.toString()}`)
  const out: Validation = new Map()
  for (const line of r.stdout.toString().split('\n')) {
    const m = /^(.+?)\s+([a-z0-9]+): (\d+) fatal, (\d+) warnings?(?:\s+\[(.*)\])?\s*$/.exec(line)
    if (!m) continue
    const [, file, check, fatal, warnings, ids] = m
    const checks = out.get(file!) ?? new Map<string, CheckResult>()
    checks.set(check!, {
      fatal: Number(fatal),
      warnings: Number(warnings),
      ids: ids ? ids.split(', ').map((s) => s.trim()) : [],
    })
    out.set(file!, checks)
  }
  return out
}

/** The fatal ids of every check of one file, with the check's name ("en16931: BR-CO-15"); empty when it passes. */
export function fatalsOf(v: Validation, file: string): string[] {
  const checks = v.get(file)
  if (!checks) return [`(no answer from validate for ${file})`]
  const out: string[] = []
  for (const [check, r] of checks) {
    if (r.fatal === 0) continue
    const ids = r.ids.filter((id) => !id.includes('(w)'))
    out.push(`${check}: ${ids.join(', ') || `${r.fatal} fatal`}`)
  }
  return out
}

/** The fatal rule ids of one file across its checks, "xN" counts dropped. */
export function fatalIds(v: Validation, file: string): string[] {
  const checks = v.get(file)
  if (!checks) return []
  const ids = new Set<string>()
  for (const r of checks.values()) for (const id of r.ids) if (!id.includes('(w)')) ids.add(id.replace(/x\d+$/, ''))
  return [...ids].sort()
}
