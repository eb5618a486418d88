/**
 * A progress line on standard error for long runs, in the manner of
 * build tools: nothing for runs under a second or when standard error is
 * not a terminal; otherwise one line redrawn in place and erased at the end.
 */

/**
 * A progress reporter.
 *
 * @example
 * const progress = startProgress(10_000, 'filters');
 * progress.tick(1); progress.done();
 */
export interface Progress {
  /** Counts `n` more items done; redraws at most ten times a second. */
  tick(n: number): void;
  /** Erases the line. */
  done(): void;
}

/**
 * Starts reporting progress over `total` items. The delay before the line
 * appears is one second; `WEPQL_PROGRESS_AFTER_MS` changes it (tests use 0).
 *
 * @example
 * const progress = startProgress(files.length, 'files');
 */
export function startProgress(total: number, unit: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const after = Number(process.env.WEPQL_PROGRESS_AFTER_MS ?? 1000);
  if (stream.isTTY !== true || total === 0) return { tick() {}, done() {} };
  const start = Date.now();
  let count = 0;
  let lastDraw = 0;
  let drawn = false;
  return {
    tick(n: number): void {
      count += n;
      const now = Date.now();
      if (now - start < (Number.isFinite(after) ? after : 1000) || now - lastDraw < 100) return;
      lastDraw = now;
      drawn = true;
      stream.write(`\r\u001b[2Kwepql: ${count}/${total} ${unit} (${Math.floor((count * 100) / total)}%)`);
    },
    done(): void {
      if (drawn) stream.write('\r\u001b[2K');
    },
  };
}
