// htmx's minified source, imported as text (see index.ts).
declare module 'htmx.org/dist/htmx.min.js' {
  const source: string
  export default source
}
