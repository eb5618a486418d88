// Placeholder until this command lands; replaced by its owner.
import { UsageError } from '../args.js';

/** Runs `wepql fmt`. */
export async function run(_argv: readonly string[]): Promise<number> {
  throw new UsageError('"fmt" is not available in this build yet');
}
