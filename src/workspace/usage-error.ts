/**
 * Problems with what a person typed on a command line or in a config file:
 * `UsageError` (the CLI exits 2 with its message) and the nearest known
 * name to suggest. The workspace layer (config, selectors, discovery) and
 * the CLI above it both raise them.
 */

/**
 * A problem with the command line or a config file itself; the CLI exits 2
 * with its message.
 *
 * @example
 * throw new UsageError('--limit needs a value');
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Edit distance counting a swap of neighbours as one edit (typing slips like "wirte"). */
function swapDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity;
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The command, option or key nearest to a mistyped one, or undefined when
 * none is close (at most 2 edits, fewer for short names; a swap of
 * neighbouring letters counts as one).
 *
 * @example
 * didYouMean('wirte', ['width', 'write']); // 'write'
 */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const budget = Math.min(2, Math.max(1, Math.floor(lower.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    let d = swapDistance(lower, c);
    if (d > budget && lower.length >= 3 && (c.startsWith(lower) || lower.startsWith(c))) d = budget;
    if (d <= budget && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}
