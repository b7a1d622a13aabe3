/**
 * Build a standalone executable: `bun scripts/build.ts` -> dist/invoicing
 *
 * - Entry src/main.ts, bundled as ESM with bytecode and split at its dynamic imports, for bun-linux-x64 (glibc).
 * - libsql native addon: libsql/index.js (and promise.js, its asynchronous API,
 *   which db/bulk.ts uses) picks its addon with a computed
 *   require(`@libsql/${target}`), which the bundler cannot follow, so the
 *   binary would die with "Cannot find module '@libsql/linux-x64-gnu'". The
 *   plugin below rewrites it to a static require so Bun embeds index.node
 *   (extracted to $TMPDIR at run time).
 * - migrations/ is embedded as-is via compile.assets (the folder keeps its own
 *   name, wherever it sits); at run time it is read-only at
 *   /$bunfs/root/migrations (see src/db/embedded-migrations.ts).
 * - The PDF engine (pdf-lib, fontkit, pako) runs in a realm of its own
 *   (src/shared/pdf-engine): it is bundled here as one script, gzipped into
 *   dist/, and embedded; the plugin below puts a reader of that file in place
 *   of the module that bundles it from a checkout.
 * - The bytecode is laid out by the profiles in scripts/bytecode/ (serving
 *   first, then the CLI), recorded by scripts/record-bytecode-order.ts: the
 *   functions a server runs sit together, so it touches fewer pages of its own
 *   file. A build without them works the same, laid out in source order.
 */
import type { BunPlugin } from "bun";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { ENGINE_BUILD, ENGINE_ENTRY } from "../src/shared/pdf-engine/source";

const ROOT = resolve(import.meta.dir, "..");
process.chdir(ROOT); // all relative paths below are repo-relative

const ENTRY = "./src/main.ts";
const OUTFILE = "./dist/invoicing";
const MIGRATIONS = "./migrations";
const LIBSQL_NATIVE = "@libsql/linux-x64-gnu"; // must match compile.target
const ORDER_FILES = ["./scripts/bytecode/serve.order", "./scripts/bytecode/cli.order"].filter((f) => existsSync(f));

const libsqlStaticNative: BunPlugin = {
  name: "libsql-static-native",
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/](index|promise)\.js$/ }, async ({ path }) => {
      const src = await Bun.file(path).text();
      const dynamic = /require\(\s*`@libsql\/\$\{target\}`\s*\)/;
      if (!dynamic.test(src)) {
        throw new Error(`libsql-static-native: computed require not found in ${path}; libsql changed, update the plugin`);
      }
      return { contents: src.replace(dynamic, `require(${JSON.stringify(LIBSQL_NATIVE)})`), loader: "js" };
    });
  },
};

// Files embedded gzipped, which src/shared/embedded-file.ts inflates: a server that has built a PDF keeps the pages
// of its own file it read resident, and read this way the fonts are 0.7 MiB in place of 1.4.
const gzip = (bytes: ArrayBuffer | Uint8Array) => gzipSync(bytes, { level: 9 });
const EMBEDDED_FILE_READER = resolve("./src/shared/embedded-file.ts");

const gzippedFonts: BunPlugin = {
  name: "gzipped-fonts",
  setup(build) {
    build.onLoad({ filter: /\.ttf$/ }, async ({ path }) => ({ contents: gzip(await Bun.file(path).bytes()), loader: "file" }));
  },
};

// The PDF engine's script, built as src/shared/pdf-engine/source.ts builds it from a checkout, and read back gzipped
// (1.4 MB of script is 0.4 MB in the binary, and pages of it are never left resident: it is read once per realm).
const ENGINE_FILE = resolve("./dist/pdf-engine.js.gz");
const pdfEngineSource: BunPlugin = {
  name: "pdf-engine-source",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]shared[\\/]pdf-engine[\\/]source\.ts$/ }, () => ({
      contents: [
        `import path from ${JSON.stringify(ENGINE_FILE)} with { type: "file" };`,
        `import { readEmbedded } from ${JSON.stringify(EMBEDDED_FILE_READER)};`,
        `export async function engineSource() { return new TextDecoder().decode(await readEmbedded(path)); }`,
      ].join("\n"),
      loader: "ts",
    }));
  },
};

for (const p of [ENTRY, join(MIGRATIONS, "meta/_journal.json")]) {
  if (!existsSync(p)) throw new Error(`build: missing ${join(ROOT, p)}`);
}
mkdirSync("./dist", { recursive: true });

const t0 = performance.now();
const engine = await Bun.build({ entrypoints: [ENGINE_ENTRY], ...ENGINE_BUILD });
if (!engine.success || !engine.outputs[0]) {
  for (const log of engine.logs) console.error(log);
  process.exit(1);
}
await Bun.write(ENGINE_FILE, gzip(await engine.outputs[0].arrayBuffer()));

const result = await Bun.build({
  entrypoints: [ENTRY],
  target: "bun",
  format: "esm",
  bytecode: true,
  // What main.ts imports only with `await import` is a chunk of its own, loaded when imported: main.ts runs before
  // the rest of the bundle is read, so the serving restart (cli/serving-options.ts) costs a few ms, not a second load
  // of the whole bundle (main.ts started 13-18 ms after the process without it, 2-6 ms with it).
  splitting: true,
  // Elysia's own advice: no identifier mangling (keeps function/class names).
  minify: { whitespace: true, syntax: true, identifiers: false },
  sourcemap: "none",
  plugins: [libsqlStaticNative, gzippedFonts, pdfEngineSource],
  compile: {
    target: "bun-linux-x64",
    outfile: OUTFILE,
    assets: [MIGRATIONS],
    bytecodeOrder: ORDER_FILES.length > 0 && ORDER_FILES,
    autoloadDotenv: false,
    autoloadBunfig: false,
    autoloadTsconfig: false,
    autoloadPackageJson: false,
  },
});

if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
for (const log of result.logs) console.warn(log);
const size = statSync(OUTFILE).size;
console.log(`built ${join(ROOT, OUTFILE)} (${(size / 1048576).toFixed(1)} MiB) in ${Math.round(performance.now() - t0)} ms`);
