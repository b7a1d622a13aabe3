// The API of an application built in process (buildApp), called as a client would, for the in-process benchmarks.
import type { App } from '../src/app'

/** `api(key, method, path, body?)`: the JSON answer, or throws with the status and text of any other than 2xx. */
export function apiOf(app: App) {
  return async function api(key: string, method: string, path: string, body?: unknown): Promise<any> {
    const res = await app.fetch(
      new Request(`http://localhost${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
    )
    const text = await res.text()
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`)
    return text ? JSON.parse(text) : null
  }
}
