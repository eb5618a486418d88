// Placeholder until this command lands; replaced by its owner.
import { UsageError } from '../args.js';

/** Runs `wepql explain`. */
export async function run(_argv: readonly string[]): Promise<number> {
  throw new UsageError('"explain" is not available in this build yet');
}
