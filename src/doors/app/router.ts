// A small router for the application's pages: exact paths with `:name` segments, matched in the order added.
export type RouteHandler = (req: Request, params: Record<string, string>) => Promise<Response>

interface Route {
  method: string
  path: string
  re: RegExp
  names: string[]
  handler: RouteHandler
}

export class Router {
  private routes: Route[] = []

  add(method: 'GET' | 'POST', path: string, handler: RouteHandler): void {
    const names: string[] = []
    const re = new RegExp(
      '^' +
        path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-z_]+)/gi, (_, n: string) => {
          names.push(n)
          return '([^/]+)'
        }) +
        '/?$',
    )
    this.routes.push({ method, path, re, names, handler })
  }

  /** Every route added, as its method and path pattern (tests walk the application's forms with it). */
  list(): Array<{ method: string; path: string }> {
    return this.routes.map((r) => ({ method: r.method, path: r.path }))
  }

  /** The route for this method and path; `allowed` names the methods the path answers when none matched. */
  match(
    method: string,
    path: string,
  ): { handler: RouteHandler; params: Record<string, string> } | { allowed: string[] } {
    const allowed: string[] = []
    for (const r of this.routes) {
      const m = r.re.exec(path)
      if (!m) continue
      if (r.method !== method && !(method === 'HEAD' && r.method === 'GET')) {
        allowed.push(r.method)
        continue
      }
      const params: Record<string, string> = {}
      r.names.forEach((n, i) => {
        try {
          params[n] = decodeURIComponent(m[i + 1]!)
        } catch {
          params[n] = ''
        }
      })
      return { handler: r.handler, params }
    }
    return { allowed }
  }
}
