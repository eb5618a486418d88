/**
 * Offsets to 1-based lines and columns for files read as text, JSON or
 * NDJSON (YAML documents carry the `yaml` package's own `LineCounter`, see
 * yaml-positions.ts). A line ends after `\n`, so in a CRLF file the `\r`
 * is the last character of its line and columns are the same as in LF.
 */

/**
 * The start offsets of a text's lines, and the line and column of an offset.
 *
 * @example
 * const lines = new LineIndex('a\nbc');
 * lines.position(3); // { line: 2, column: 2 }
 */
export class LineIndex {
  /** The offset where each line starts; the first is 0. */
  readonly starts: readonly number[];

  constructor(text: string) {
    const starts = [0];
    let at = text.indexOf('\n');
    while (at !== -1) {
      starts.push(at + 1);
      at = text.indexOf('\n', at + 1);
    }
    this.starts = starts;
  }

  /** The 1-based line and column of a character offset (by binary search over the line starts). */
  position(offset: number): { line: number; column: number } {
    return positionIn(this.starts, offset);
  }
}

/**
 * The 1-based line and column of `offset` given the start offsets of the
 * lines (those of a `LineIndex`, or of the `yaml` package's `LineCounter`).
 *
 * @example
 * positionIn([0, 2], 3); // { line: 2, column: 2 }
 */
export function positionIn(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}
