/**
 * The BUILT `wepql` (dist/cli/main.js, the bundled file the `wepql` program
 * runs) called in the test's own process, for the server and topology
 * files that use the CLI as a tool — seeding a database, indexing it,
 * running the HTTP conformance cases against a server of the test's own —
 * where the process it would start is not the thing tested. A spawn costs
 * the start of Node and the load of the bundle (~0.5 s of CPU each, seconds
 * on a loaded machine); here the bundle is loaded once per file and each
 * command only does its work. The code run is the shipped code, its
 * `runWepql` being the call the program makes; the run is taken through
 * runEntryInProcess (cli-in-process.ts), so a command that leaves a timer, a
 * listener or an exit code behind fails its test, as it would keep a real
 * `wepql` from exiting.
 *
 * DATABASE_URL is cleared for each run, as the files' spawns did, so only
 * the flags name a database.
 */
import { pathToFileURL } from 'node:url';
import { CLI, type CliResult } from './cli.js';
import { runEntryInProcess, type CommandEntry, type InProcessOptions } from './cli-in-process.js';
import { assertFreshDist } from './dist.js';

let entry: Promise<CommandEntry> | undefined;

/**
 * `wepql ...args` of the built CLI, run in this process with DATABASE_URL
 * unset (unless `options.env` sets it), in `options.cwd` (the repository
 * root by default) with `options.input` as standard input: the code, the
 * output and the errors a spawn of `wepql` gives.
 *
 * @example
 * const r = await builtCli(['db-seed', '--conformance', '--database-url', url]); // { code: 0, stdout: 'created table …', stderr: '' }
 */
export function builtCli(args: readonly string[], options: InProcessOptions = {}): Promise<CliResult> {
  entry ??= (async () => {
    assertFreshDist();
    const built = (await import(/* @vite-ignore */ pathToFileURL(CLI).href)) as { runWepql: CommandEntry };
    return built.runWepql;
  })();
  return entry.then((run) => runEntryInProcess(run, args, { ...options, env: { DATABASE_URL: undefined, ...options.env } }));
}
