// Command-line options of the benchmarks: `--name value` and positive numbers with defaults.

export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`)
  if (i < 0) return undefined
  const v = process.argv[i + 1]
  if (v === undefined || v.startsWith('--')) throw new Error(`--${name} needs a value`)
  return v
}
export function argNumber(name: string, dflt: number): number {
  const raw = argValue(name)
  if (raw === undefined) return dflt
  const n = Number(raw)
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`)
  return n
}
