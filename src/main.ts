// The `invoicing` executable: checks what must hold before any module loads, then runs the CLI (cli/run.ts). Whatever
// fails at start-up is told in one line on stderr, never as a stack of minified source.
import { accessSync, constants, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { exitCodeOf, oneLine } from './cli/one-line'
import { restartWithServingOptions } from './cli/serving-options'
import { compileLessWhileStarting } from './cli/start-up-jit'

/** The compiled binary unpacks the database driver's native library into the temporary folder as it loads. */
function temporaryFolderProblem(): string | null {
  const dir = tmpdir()
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder')
    accessSync(dir, constants.W_OK)
    return null
  } catch {
    return `the temporary folder ${dir} (from $TMPDIR) is missing or not writable; the database driver is unpacked there at start. Set TMPDIR to a writable folder.`
  }
}

function fail(line: string, code: number): never {
  process.stderr.write(`invoicing: ${line}\n`)
  process.exit(code)
}

const problem = temporaryFolderProblem()
if (problem) fail(problem, 1)
// A serving command starts again under the runtime options that bound its memory (cli/serving-options.ts),
// before anything is loaded.
restartWithServingOptions()
compileLessWhileStarting()

try {
  // Loaded only now, so that a driver that fails to load is caught here like any other failure.
  const { runCli } = await import('./cli/run')
  await runCli(process.argv.slice(2))
} catch (e) {
  fail(oneLine(e), exitCodeOf(e))
}
