// Placeholder until this command lands; replaced by its owner.
import { UsageError } from '../args.js';

/** Runs `wepql parse`. */
export async function run(_argv: readonly string[]): Promise<number> {
  throw new UsageError('"parse" is not available in this build yet');
}
