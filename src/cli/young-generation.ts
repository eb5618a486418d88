/**
 * Holding V8's young generation at the size it has, for a command that
 * reads and checks many files in one go.
 *
 * V8 doubles the young generation (the space new objects are made in, up to
 * 16 MB a half on 64-bit) each time a scavenge finds most of it still alive,
 * as a lint run's findings and frames are. Every page it grows into is
 * fresh memory the process faults in, and every object still alive is
 * copied across the larger space. Held at 1 MB a half, a cold `wepql lint`
 * of 1,000 files scavenges more often but each scavenge is small: about 10%
 * less wall time and CPU, and 30 MiB less resident memory, on the 2-core
 * machine of `bench/results/startup.md` (a page fault costs about 16 µs
 * there).
 */
import { setFlagsFromString } from 'node:v8';

// The V8 flag that stops the young generation's growth: V8 reads it each time it would grow the space, so
// setting it while running takes effect from the next scavenge on (`node --semi-space-growth-factor=1` is the same).
const HOLD_YOUNG_GENERATION = '--semi-space-growth-factor=1';

/**
 * Holds the young generation at its present size for the rest of the
 * process (worker threads started later included). Only under V8 11 (Node
 * 20), where the flag is tested: V8 writes an error to standard error for a
 * flag it does not know, so under another V8 the young generation is left
 * to grow as V8 decides.
 *
 * @example
 * holdYoungGeneration(); // before linting many files
 */
export function holdYoungGeneration(): void {
  if (process.versions.v8.startsWith('11.')) setFlagsFromString(HOLD_YOUNG_GENERATION);
}
