// Which paths the OAuth door answers: asked by app.ts for every request, so it lives apart from the door itself
// (the door, with its grant library, is loaded with the first OAuth request).
/** The paths this door answers; everything else goes on to the other doors. */
export function isOAuthPath(path: string): boolean {
  return path.startsWith('/oauth/') || path.startsWith('/.well-known/oauth-')
}
