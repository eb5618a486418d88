/**
 * The `--shards URL,URL` option of `wepql db-seed` and `wepql db-index`:
 * the shard databases, partition `i` on the `i`-th.
 */
import { UsageError } from '../workspace/usage-error.js';

/**
 * The URLs of `--shards URL,URL` (at most 1024, as partitions), or undefined without the option.
 *
 * @example
 * splitShards('postgres://a/db,postgres://b/db'); // ['postgres://a/db', 'postgres://b/db']
 */
export function splitShards(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const urls = text.split(',').map((u) => u.trim());
  if (urls.some((u) => u === '')) throw new UsageError(`--shards needs URL,URL with no empty entry, got ${JSON.stringify(text)}`);
  if (urls.length > 1024) throw new UsageError(`--shards takes at most 1024 URLs, got ${urls.length}`);
  if (new Set(urls).size !== urls.length) throw new UsageError('--shards names one database twice');
  return urls;
}
