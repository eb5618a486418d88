/**
 * Holding V8's young generation at the size it has, for a command that
 * reads and checks many files in one go.
 *
 * V8 doubles the young generation (the space new objects are made in, up to
 * 16 MB a half on 64-bit) each time a scavenge finds most of it still alive,
 * as a lint run's findings and frames are. Every page it grows into is
 * fresh memory the process faults in, and every object still alive is
 * copied across the larger space. Held, a cold `wepql lint` of 1,000 files
 * scavenges more often but each scavenge is small: about 10% less wall time
 * and CPU, and 30 MiB less resident memory, on the 2-core machine of
 * `bench/results/startup.md` (a page fault costs about 16 µs there). A run
 * of a few files gains nothing, and loading `node:v8` would cost it about
 * 10 ms of CPU, so only runs of `HOLD_FROM` files or more hold it, from
 * before the files are read (reading 1,000 files alone grows it to 8 MB a
 * half).
 */

// The V8 flag that stops the young generation's growth: V8 reads it each time it would grow the space, so
// setting it while running takes effect from the next scavenge on (`node --semi-space-growth-factor=1` is the same).
const HOLD_YOUNG_GENERATION = '--semi-space-growth-factor=1';

/** The fewest files for which a command holds the young generation. */
const HOLD_FROM = 100;

/** Set by the `wepql` program's entry: a command run inside another program (`runWepql` imported) changes nothing process-wide. */
let program = false;

/**
 * Lets this process's batch commands hold the young generation: called by
 * the `wepql` program's entry only.
 *
 * @example
 * if (isProgram()) allowYoungGenerationHold();
 */
export function allowYoungGenerationHold(): void {
  program = true;
}

/**
 * Whether a run of `files` files holds the young generation: in the `wepql`
 * program, for `HOLD_FROM` files or more, and only under V8 11 (Node 20),
 * where the flag is tested: V8 writes an error to standard error for a flag
 * it does not know.
 *
 * @example
 * holdsYoungGeneration({ program: true, files: 1_000, v8: '11.3.244.8-node.33' }); // true
 */
export function holdsYoungGeneration(run: { readonly program: boolean; readonly files: number; readonly v8: string }): boolean {
  return run.program && run.files >= HOLD_FROM && run.v8.startsWith('11.');
}

/**
 * Holds the young generation at its present size for the rest of the
 * process (worker threads started later included) when a run of `files`
 * files should (`holdsYoungGeneration`).
 *
 * @example
 * holdYoungGenerationFor(candidates.length); // once the files are found, before they are read
 */
export function holdYoungGenerationFor(files: number): void {
  if (!holdsYoungGeneration({ program, files, v8: process.versions.v8 })) return;
  // Loaded here, not at the top: only a run that holds pays for the module.
  process.getBuiltinModule('node:v8').setFlagsFromString(HOLD_YOUNG_GENERATION);
}
