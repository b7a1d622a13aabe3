// The browsable API reference at /docs: Scalar's page with its script served from the binary, never a CDN.
import { Elysia } from 'elysia'
// Bun embeds this file in the compiled binary; the import gives its path there (a JS asset, so it has no types).
// @ts-expect-error TS7016: imported as a file, not as a module
import scalarScript from '../../node_modules/@scalar/api-reference/dist/browser/standalone.js' with { type: 'file' }

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
    <script>
      // Offline and self-hosted: no hosted-service buttons (Ask AI, Deploy, Share, Generate MCP), no telemetry, no fonts from a CDN.
      Scalar.createApiReference('#app', {
        url: '/openapi.json',
        withDefaultFonts: false,
        hideClientButton: true,
        telemetry: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        showToolbar: 'never',
        showDeveloperTools: 'never',
        hideDownloadButton: false,
      })
    </script>
  </body>
</html>`

export function docsRoutes() {
  return new Elysia({ name: 'docs' })
    .get('/docs', () => new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } }), { detail: { hide: true } })
    .get(
      '/docs/assets/scalar.js',
      () => new Response(Bun.file(scalarScript), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' } }),
      { detail: { hide: true } },
    )
}
