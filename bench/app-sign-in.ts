// The bench person's sign-in through the application's form, as a browser does: for bench/app-pages.ts (over HTTP)
// and bench/app-pages-cpu.ts (through app.fetch in its own process). bench/app-pages-tree.ts made the person.

/** Posts the sign-in form at `origin` through `send` and answers the session's cookie header. */
export async function signInCookie(
  send: (req: Request) => Promise<Response>,
  origin: string,
  who: string,
): Promise<string> {
  const jar = new Map<string, string>()
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const eq = pair!.indexOf('=')
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1))
    }
  }
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const page = await send(new Request(`${origin}/app/sign-in`))
  keep(page)
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? ''
  const signed = await send(
    new Request(`${origin}/app/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie(), origin },
      body: new URLSearchParams({ _csrf: csrf, email: 'owner@bench.example', password: 'a long bench password' }),
    }),
  )
  keep(signed)
  if (signed.status !== 303) throw new Error(`${who}: sign-in answered ${signed.status}`)
  return cookie()
}
