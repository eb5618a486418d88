/**
 * A small, strict argument parser for the `wepql` subcommands: unknown
 * flags and missing flag values are usage errors (exit 2), never ignored.
 */
import { didYouMean } from '../diagnostics/suggest.js';
import { UsageError } from '../workspace/usage-error.js';

/** What a subcommand accepts: flags that take a value, and boolean switches. */
export interface ArgSpec {
  /** Flags that take a value, such as `--schema FILE` (also `--schema=FILE`). */
  readonly values?: readonly string[];
  /** Flags that are on or off, such as `--fix`. */
  readonly switches?: readonly string[];
  /** Flags that take a value and may repeat; collected in order. */
  readonly repeatable?: readonly string[];
  /** Short aliases, such as `-q` for `--quiet`. */
  readonly aliases?: Readonly<Record<string, string>>;
}

/** The parsed command line. */
export interface ParsedArgs {
  readonly values: ReadonlyMap<string, string>;
  readonly switches: ReadonlySet<string>;
  readonly repeated: ReadonlyMap<string, readonly string[]>;
  /** Everything that is not a flag, in order; `-` stays a positional (stdin). */
  readonly positionals: readonly string[];
}

/**
 * Whether an argument that starts with `-` is TEXT rather than an option:
 * `--anything` and a known short alias are options (an unknown `--name` is
 * a usage error with "did you mean"), and so is a lone letter such as `-x`
 * (most likely a mistyped alias); anything else — a filter such as
 * `-5.x(1)` — is text. `--` still ends the options outright.
 */
function isText(arg: string, spec: ArgSpec): boolean {
  if (arg.startsWith('--')) return false;
  const written = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
  if (spec.aliases !== undefined && Object.hasOwn(spec.aliases, written)) return false;
  return !/^-[A-Za-z]$/.test(written);
}

/**
 * Parses `argv` (without the subcommand name) against a spec. `--` ends the
 * flags; an argument starting with `-` that is not an option (`-5.x(1)`) is
 * a positional. Throws `UsageError` for an unknown flag or a flag without
 * its value.
 *
 * @example
 * parseArgs(['--schema', 's.json', '--fix', 'a.txt'], { values: ['--schema'], switches: ['--fix'] });
 */
export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const valueFlags = new Set(spec.values ?? []);
  const switchFlags = new Set(spec.switches ?? []);
  const repeatFlags = new Set(spec.repeatable ?? []);
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const repeated = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-' && !isText(arg, spec)) {
      const eq = arg.indexOf('=');
      const written = eq > 0 ? arg.slice(0, eq) : arg;
      const flag = spec.aliases !== undefined && Object.hasOwn(spec.aliases, written) ? spec.aliases[written]! : written;
      if (switchFlags.has(flag)) {
        if (eq > 0) throw new UsageError(`${flag} takes no value`);
        switches.add(flag);
        continue;
      }
      if (valueFlags.has(flag) || repeatFlags.has(flag)) {
        let value: string;
        if (eq > 0) value = arg.slice(eq + 1);
        else {
          if (i + 1 >= argv.length) throw new UsageError(`${flag} needs a value`);
          value = argv[++i]!;
        }
        if (repeatFlags.has(flag)) {
          const list = repeated.get(flag) ?? [];
          list.push(value);
          repeated.set(flag, list);
        } else values.set(flag, value);
        continue;
      }
      const known = [...valueFlags, ...switchFlags, ...repeatFlags].sort();
      const near = flag.startsWith('--')
        ? didYouMean(
            flag.slice(2),
            known.map((k) => k.slice(2)),
          )
        : undefined;
      throw new UsageError(
        `unknown option ${flag}` +
          (near !== undefined ? `; did you mean --${near}?` : known.length > 0 ? ` (this command accepts: ${known.join(', ')})` : ''),
      );
    }
    positionals.push(arg);
  }
  return { values, switches, repeated, positionals };
}

/**
 * Reads `--max-warnings`: a whole number ≥ 0, or -1 for no limit (as
 * ESLint reads it). Throws `UsageError` for anything else.
 *
 * @example
 * maxWarningsFlag(args); // -1, 10, or undefined when absent
 */
export function maxWarningsFlag(args: ParsedArgs): number | undefined {
  return args.values.get('--max-warnings') === '-1' ? -1 : integerFlag(args, '--max-warnings');
}

/**
 * Reads a flag as a non-negative integer, or throws `UsageError`.
 *
 * @example
 * integerFlag(args, '--limit'); // 10, or undefined when absent
 */
export function integerFlag(args: ParsedArgs, flag: string, min = 0): number | undefined {
  const raw = args.values.get(flag);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new UsageError(`${flag} must be a whole number ≥ ${min}, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}
