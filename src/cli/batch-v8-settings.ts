/**
 * V8 settings for a command that reads and checks many files in one go
 * (`wepql lint`, `wepql fmt --check`): set by the `wepql` program once the
 * files are found, for runs of `BATCH_FROM` files or more.
 *
 * Such a run is over in well under a second, most of it in code V8 has not
 * optimized yet. Two of V8's defaults are made for long-lived programs and
 * cost a short batch more than they save, on the 2-core machine of
 * `bench/results/startup.md`:
 *
 * - **The young generation's growth.** V8 doubles the young generation (the
 *   space new objects are made in, up to 16 MB a half on 64-bit) each time a
 *   scavenge finds most of it still alive, as a lint run's findings and
 *   frames are. Every page it grows into is fresh memory the process faults
 *   in, and every object still alive is copied across the larger space.
 *   Held, a cold `wepql lint` of 1,000 files scavenges more often but each
 *   scavenge is small: about 10% less wall time and CPU, and 30 MiB less
 *   resident memory. Reading 1,000 files alone grows it to 8 MB a half, so
 *   it is held from before they are read.
 * - **TurboFan's inlining.** TurboFan optimizes the functions a run keeps
 *   hot on a background thread while the main thread goes on in slower
 *   code. Inlining their callees, it takes 15–35 ms over each of a lint's
 *   large functions: 1.2 s of compiling in a cold 1,000-file lint, which on
 *   two cores competes with the main thread for the second core, so the hot
 *   code is optimized late. Without inlining the same compiling is about
 *   0.4 s: the cold lint took 490 against 590 ms wall and 660 against 920 ms
 *   CPU (paired medians of 11), and a run of 100,000 filters was no slower.
 *   Only the switch is set: V8 reads it once per compile, on this thread,
 *   where the sizes that bound inlining (`--max-inlined-bytecode-size`) are
 *   read again and again on the compiling thread, and a size changed in the
 *   middle of a compile fails V8's own check and ends the process.
 *
 * A run of a few files gains nothing from either, and loading `node:v8`
 * would cost it about 10 ms of CPU.
 */

/**
 * The V8 flags a batch run sets, in V8's own syntax (`node <flag>` sets the
 * same). V8 reads each when it uses it (growing the young generation,
 * starting an optimizing compile), so set while running they take effect
 * from then on, in worker threads started later too.
 */
const BATCH_FLAGS = ['--semi-space-growth-factor=1', '--no-turbo-inlining'] as const;

/** The fewest files for which a command sets `BATCH_FLAGS`. */
const BATCH_FROM = 100;

/** Set by the `wepql` program's entry: a command run inside another program (`runWepql` imported) changes nothing process-wide. */
let program = false;

/**
 * Lets this process's batch commands set their V8 settings: called by the
 * `wepql` program's entry only.
 *
 * @example
 * if (isProgram()) allowBatchV8Settings();
 */
export function allowBatchV8Settings(): void {
  program = true;
}

/**
 * The V8 flags a run of `files` files sets: `BATCH_FLAGS` in the `wepql`
 * program, for `BATCH_FROM` files or more, and only under V8 11 (Node 20),
 * where they are tested (V8 writes an error to standard error for a flag it
 * does not know); otherwise none.
 *
 * @example
 * batchV8Flags({ program: true, files: 1_000, v8: '11.3.244.8-node.33' }); // ['--semi-space-growth-factor=1', '--no-turbo-inlining']
 */
export function batchV8Flags(run: { readonly program: boolean; readonly files: number; readonly v8: string }): readonly string[] {
  return run.program && run.files >= BATCH_FROM && run.v8.startsWith('11.') ? BATCH_FLAGS : [];
}

/**
 * Sets the V8 flags of a run of `files` files (`batchV8Flags`) for the rest
 * of the process, worker threads started later included.
 *
 * @example
 * setBatchV8SettingsFor(candidates.length); // once the files are found, before they are read
 */
export function setBatchV8SettingsFor(files: number): void {
  const flags = batchV8Flags({ program, files, v8: process.versions.v8 });
  if (flags.length === 0) return;
  // Loaded here, not at the top: only a run that sets them pays for the module.
  process.getBuiltinModule('node:v8').setFlagsFromString(flags.join(' '));
}
