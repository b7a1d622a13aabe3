// The browsable API reference at /docs: Scalar's page with its script served from the binary, never a CDN.
import { Elysia } from 'elysia'
// Bun embeds this file in the compiled binary; the import gives its path there (a JS asset, so it has no types).
// @ts-expect-error TS7016: imported as a file, not as a module
import scalarScript from '../../../node_modules/@scalar/api-reference/dist/browser/standalone.js' with { type: 'file' }

const PAGE = `<!doctype html>
<html>
  <head>
    <title>invoicing API v1</title>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/assets/scalar.js"></script>
    <script src="/docs/assets/start.js"></script>
  </body>
</html>`

// proxyUrl '': Scalar sends "try it" requests to any non-local server through its public proxy by default, which
// would hand that proxy the request and the API key in it. No proxy: the browser sends them itself, or not at all.
// Offline and self-hosted: no hosted-service buttons (Ask AI, Deploy, Share, Generate MCP), no telemetry, no CDN fonts.
const START = `Scalar.createApiReference('#app', { url: '/openapi.json', proxyUrl: '', withDefaultFonts: false, hideClientButton: true, telemetry: false, agent: { disabled: true }, mcp: { disabled: true }, showToolbar: 'never', showDeveloperTools: 'never', hideDownloadButton: false })`

/**
 * What the page may load and where it may send: only this service. Even were Scalar to try another host (a proxy,
 * fonts, telemetry), the browser refuses it. Scalar sets styles inline, hence 'unsafe-inline' for styles only.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const html = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': DOCS_CSP,
  'x-content-type-options': 'nosniff',
}
const script = {
  'content-type': 'text/javascript; charset=utf-8',
  'cache-control': 'public, max-age=86400',
  'x-content-type-options': 'nosniff',
}

export function docsRoutes() {
  return new Elysia({ name: 'docs' })
    .get('/docs', () => new Response(PAGE, { headers: html }), { detail: { hide: true } })
    .get('/docs/assets/scalar.js', () => new Response(Bun.file(scalarScript), { headers: script }), {
      detail: { hide: true },
    })
    .get('/docs/assets/start.js', () => new Response(START, { headers: script }), { detail: { hide: true } })
}
