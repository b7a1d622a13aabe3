// The dashboard chart is well-formed SVG with one bar per month, labelled for screen readers, negative months below
// the zero line, and every text escaped.
import { describe, expect, test } from 'bun:test'
import { barChartSvg, niceTop, shortAmount } from './chart'

describe('bar chart SVG', () => {
  test('one bar per value, titled, escaped, heights in proportion, negatives below zero', () => {
    const svg = barChartSvg(
      [
        { label: 'Jan', title: 'January: 100.00 EUR', value: '100.00' },
        { label: 'Feb', title: 'February: 50.00 EUR', value: '50.00' },
        { label: 'Mar', title: 'March: -25.00 EUR <&>', value: '-25.00', current: true },
        { label: 'Apr', title: 'April: 0.00 EUR', value: '0.00' },
      ],
      { title: 'Income by month', description: 'Four months' },
    )
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg.match(/<rect /g)!.length).toBe(4)
    expect(svg).toContain('March: -25.00 EUR &lt;&amp;&gt;')
    expect(svg).not.toContain('<&>')
    expect(svg).toContain('class="chart-bar chart-current chart-negative"')
    const heights = [...svg.matchAll(/height="([\d.]+)"/g)].map((m) => Number(m[1]))
    expect(heights[0]).toBeCloseTo(heights[1]! * 2, 0)
    expect(heights[3]).toBe(0)
    // Well-formed: every opened element is closed (no parser in Bun; a strict count stands in).
    const opened = (svg.match(/<(svg|g|title|desc|text)[ >]/g) ?? []).length
    const closed = (svg.match(/<\/(svg|g|title|desc|text)>/g) ?? []).length
    expect(opened).toBe(closed)
  })

  test('the scale top is a round number at or above the largest value; axis words are short', () => {
    expect(niceTop(0)).toBe(1)
    expect(niceTop(730)).toBe(1000)
    expect(niceTop(2100)).toBe(2500)
    expect(niceTop(49_000)).toBe(50_000)
    expect(shortAmount(2500)).toBe('2.5k')
    expect(shortAmount(-1_200_000)).toBe('-1.2M')
  })
})
