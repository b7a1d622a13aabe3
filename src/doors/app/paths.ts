// Which paths the application answers: asked by app.ts for every request, so it lives apart from the door itself (the
// door, with its pages, is loaded with the first request for one of them).

/** Whether a request is for the application (its pages and assets). */
export function isAppPath(pathname: string): boolean {
  return pathname === '/app' || pathname.startsWith('/app/')
}
