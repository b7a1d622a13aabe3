// A bar chart drawn on the server as inline SVG (no script, no chart library, no CDN): the dashboard's income by month.
// Values are decimal strings; bar heights are proportions for the eye only, every figure shown is the string itself.

export interface Bar {
  /** Short label under the bar (e.g. "Mar"). */
  label: string
  /** Longer words for the bar's title (tooltip and screen readers), e.g. "March 2026: 1,234.00 EUR". */
  title: string
  /** An exact decimal string, possibly negative (a month of Credit Notes). */
  value: string
  /** Marks a bar (the current month). */
  current?: boolean
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** A decimal string as a float for drawing only: exactness does not matter for pixel heights. */
function magnitude(v: string): number {
  const n = Number.parseFloat(v)
  return Number.isFinite(n) ? n : 0
}

/** A round scale top at or above `max` (1, 2, 2.5 or 5 times a power of ten), so the grid reads well. */
export function niceTop(max: number): number {
  if (max <= 0) return 1
  const p = 10 ** Math.floor(Math.log10(max))
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= max) return m * p
  return 10 * p
}

/** Axis words for a scale value: 1.2k, 3.4M, as a person skims them. */
export function shortAmount(n: number): string {
  const a = Math.abs(n)
  const sign = n < 0 ? '-' : ''
  if (a >= 1e9) return `${sign}${+(a / 1e9).toFixed(1)}B`
  if (a >= 1e6) return `${sign}${+(a / 1e6).toFixed(1)}M`
  if (a >= 1e3) return `${sign}${+(a / 1e3).toFixed(1)}k`
  return `${sign}${+a.toFixed(2)}`
}

/**
 * The SVG: a labelled, scalable bar chart (viewBox, width 100%) with a title and description for screen readers;
 * negative months go below the zero line. Styling comes from the page's stylesheet through class names.
 */
export function barChartSvg(
  bars: Bar[],
  o: {
    title: string
    description: string
    id?: string
    width?: number
    height?: number
    fontSize?: number
    className?: string
  },
): string {
  const W = o.width ?? 640
  const H = o.height ?? 220
  const id = o.id ?? 'chart'
  const font = o.fontSize ?? 11
  const left = Math.round(font * 4.4)
  const right = 8
  const top = 12
  const bottom = Math.round(font * 2.5)
  const values = bars.map((b) => magnitude(b.value))
  const maxUp = niceTop(Math.max(0, ...values))
  const minDown = Math.min(0, ...values) < 0 ? niceTop(-Math.min(...values)) : 0
  const span = maxUp + minDown
  const plotH = H - top - bottom
  const y = (v: number) => top + ((maxUp - v) / span) * plotH
  const zero = y(0)
  const step = (W - left - right) / Math.max(1, bars.length)
  const barW = Math.max(4, step * 0.64)
  const parts: string[] = []
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-labelledby="${id}-title ${id}-desc" class="chart${o.className ? ` ${o.className}` : ''}" font-size="${font}">`,
  )
  parts.push(`<title id="${id}-title">${esc(o.title)}</title><desc id="${id}-desc">${esc(o.description)}</desc>`)
  // Grid: the top, half-way and zero lines (and the bottom when months go negative).
  const ticks = [maxUp, maxUp / 2, 0, ...(minDown > 0 ? [-minDown] : [])]
  for (const t of ticks) {
    const ty = y(t).toFixed(1)
    parts.push(
      `<line class="chart-grid${t === 0 ? ' chart-zero' : ''}" x1="${left}" x2="${W - right}" y1="${ty}" y2="${ty}"/>`,
    )
    parts.push(
      `<text class="chart-axis" x="${left - 6}" y="${ty}" text-anchor="end" dominant-baseline="middle">${esc(shortAmount(t))}</text>`,
    )
  }
  bars.forEach((b, i) => {
    const v = values[i]!
    const x = left + i * step + (step - barW) / 2
    const h = Math.abs(y(v) - zero)
    const by = v >= 0 ? zero - h : zero
    parts.push(
      `<g class="chart-bar${b.current ? ' chart-current' : ''}${v < 0 ? ' chart-negative' : ''}"><title>${esc(b.title)}</title>` +
        `<rect x="${x.toFixed(1)}" y="${by.toFixed(1)}" width="${barW.toFixed(1)}" height="${Math.max(h, v === 0 ? 0 : 1).toFixed(1)}" rx="2"/></g>`,
    )
    parts.push(
      `<text class="chart-label" x="${(x + barW / 2).toFixed(1)}" y="${H - Math.round(font * 0.7)}" text-anchor="middle">${esc(b.label)}</text>`,
    )
  })
  parts.push('</svg>')
  return parts.join('')
}
