/**
 * Colour for terminal output, decided once per run in the manner of
 * ESLint and chalk: `--no-color` and `--color` win, then `NO_COLOR` (any
 * non-empty value turns colour off), then `FORCE_COLOR` (`0`/`false` off,
 * anything else on), else colour only when standard output is a terminal.
 */

let enabled = false;

/**
 * Decides whether this run colours its output.
 *
 * @example
 * decideColor('--no-color', process.env, process.stdout.isTTY === true); // false
 */
export function decideColor(flag: '--color' | '--no-color' | undefined, env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  if (flag === '--no-color') return false;
  if (flag === '--color') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === '0' || force.toLowerCase() === 'false');
  return isTty;
}

/**
 * Turns colour on or off for the rest of the run.
 *
 * @example
 * setColor(true);
 */
export function setColor(on: boolean): void {
  enabled = on;
}

/**
 * Whether this run colours its output (as `setColor` left it).
 *
 * @example
 * if (colorOn()) process.stdout.write('\u001b[1m');
 */
export function colorOn(): boolean {
  return enabled;
}

const wrap =
  (open: number, close: number) =>
  (text: string): string =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;

/**
 * Styles, each the identity when colour is off.
 *
 * @example
 * process.stdout.write(paint.red('error') + '\n');
 */
export const paint = {
  red: wrap(31, 39),
  yellow: wrap(33, 39),
  green: wrap(32, 39),
  cyan: wrap(36, 39),
  dim: wrap(2, 22),
  bold: wrap(1, 22),
  underline: wrap(4, 24),
};

/**
 * A severity word in its colour: errors red, warnings yellow, infos cyan.
 *
 * @example
 * severityLabel('warning'); // '\u001b[33mwarning\u001b[39m' when colour is on
 */
export function severityLabel(severity: 'error' | 'warning' | 'info'): string {
  return severity === 'error' ? paint.red(severity) : severity === 'warning' ? paint.yellow(severity) : paint.cyan(severity);
}

/**
 * `n thing` or `n things`.
 *
 * @example
 * plural(1, 'file'); // '1 file'
 * plural(2, 'match', 'matches'); // '2 matches'
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The one label standard input goes by in messages and reports. */
export const STDIN_LABEL = '<stdin>';
