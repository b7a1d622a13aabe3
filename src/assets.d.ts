// Font files are imported as embedded assets: Bun gives their path (inside the binary when compiled).
declare module '*.ttf' {
  const path: string
  export default path
}

declare module '*.icc' {
  const path: string
  export default path
}
