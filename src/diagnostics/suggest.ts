/**
 * "Did you mean …?" for misspelled operator and field names: the candidate
 * with the smallest edit distance, compared case-insensitively.
 */

/**
 * Levenshtein distance, giving up (returning `limit + 1`) once it exceeds
 * `limit` so that hostile long names cost bounded time.
 *
 * @example
 * editDistance('Equals', 'Equal'); // 1
 */
export function editDistance(a: string, b: string, limit = 64): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (a.length > 256 || b.length > 256) return limit + 1;
  let prev = new Array<number>(b.length + 1);
  let curr = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    curr[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j]! + 1, curr[j - 1]! + 1, prev[j - 1]! + cost);
      curr[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    [prev, curr] = [curr, prev];
  }
  return prev[b.length]!;
}

/**
 * The candidate nearest to `name` (case-insensitive), or undefined when none
 * is close enough: within a third of the name's length, at least 2 edits,
 * or a candidate that starts with the name / that the name starts with.
 *
 * @example
 * nearestName('Equals', ['Equal', 'NotEqual']); // 'Equal'
 * nearestName('Zzz', ['Equal']);                // undefined
 */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const budget = Math.max(2, Math.floor(lower.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const c = candidate.toLowerCase();
    let d = editDistance(lower, c, budget);
    if (d > budget && lower.length >= 3 && (c.startsWith(lower) || lower.startsWith(c))) d = budget;
    if (d <= budget && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** The most names one `nearestNameIn` remembers: text of endless new names costs only the search. */
const REMEMBERED_NAMES = 1000;

/**
 * `nearestName` over candidates that do not change, remembering the answer
 * for each name asked (up to 1,000 names): a lint of thousands of saved
 * filters meets the same misspelled field or operator again and again, and
 * each answer compares the name with every candidate.
 *
 * @example
 * const nearestOperator = nearestNameIn(['Equal', 'NotEqual']);
 * nearestOperator('Equals'); // 'Equal'
 */
export function nearestNameIn(candidates: readonly string[]): (name: string) => string | undefined {
  const answers = new Map<string, string | undefined>();
  return (name) => {
    if (answers.has(name)) return answers.get(name);
    const answer = nearestName(name, candidates);
    if (answers.size < REMEMBERED_NAMES) answers.set(name, answer);
    return answer;
  };
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
