/**
 * The PostgreSQL dialect (`pg`, PGlite, partitioned and sharded tables):
 * its compiler rules, its driver side (./driver.ts) and its storage side.
 * Table creation with partitions and shards is in ./table.ts.
 */
import type { ScalarType } from '../../../schema/values.js';
import { LIKE_ESCAPE } from '../../patterns.js';
import type { Dialect, DialectStorage, SqlDialectRules } from '../dialect.js';
import { backtickQuoted, doubleQuotedShort, nullsPlaced, plainOrder } from '../shared.js';
import { postgresCounterDdl } from './counter.js';
import { POSTGRES_DRIVER } from './driver.js';
import { postgresJsonValue } from './json.js';
import { POSTGRES_TYPES, postgresTimestamp } from './values.js';

/**
 * The collation PostgreSQL folds case with unless `foldCollation` names
 * another: `pg_unicode_fast` (PostgreSQL 18), whose `lower()` is Unicode's
 * full case mapping, as `String.prototype.toLowerCase`.
 *
 * @example
 * toSql({ sort: 'LastName=Asc' }, { dialect: 'postgres', schema }).orderBy;
 * // `lower("LastName" COLLATE "${DEFAULT_FOLD_COLLATION}") ASC NULLS FIRST`
 */
export const DEFAULT_FOLD_COLLATION = 'pg_unicode_fast';

// PostgreSQL values a source read back as the engine's own text because no JSON number holds them exactly:
// a timestamptz at microseconds (or ±infinity) as the SQL data source writes it, and non-finite doubles.
const POSTGRES_INSTANT_TEXT = /^(?:-?infinity|\d{4,}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00 (?:AD|BC))$/;
const POSTGRES_NON_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);

const RULES: SqlDialectRules = Object.freeze({
  name: 'postgres',
  quote: doubleQuotedShort,
  placeholder: (n: number) => `$${n}`,
  // pg_unicode_fast (PostgreSQL 18, the default fold collation) applies Unicode's full case
  // mapping, final sigma included — what toLowerCase does; both it and "C" order by code point.
  defaultFoldCollation: DEFAULT_FOLD_COLLATION,
  quoteCollation: doubleQuotedShort,
  // Case-sensitive strings are pinned to "C"; the binary collation option is MySQL's, checked alike.
  defaultBinaryCollation: 'C',
  quoteBinaryCollation: backtickQuoted,
  compared: (raw: string, caseSensitive: boolean, fold: string) => (caseSensitive ? `${raw} COLLATE "C"` : `lower(${raw} COLLATE ${fold})`),
  likeEscape: LIKE_ESCAPE,
  caseSensitiveMatch: 'like',
  orderSuffix: nullsPlaced,
  textParameterCast: '::text',
  datetimeParameterCast: '::timestamptz',
  // One parameter however long the list: `= ANY($1::type[])`.
  listMembership: (expr: string, negated: boolean, type: ScalarType, values: readonly unknown[]) => ({
    before: `${expr} ${negated ? '<> ALL' : '= ANY'}(`,
    param: values,
    after: `::${POSTGRES_TYPES[type]}[])`,
  }),
  jsonValue: postgresJsonValue,
  exactTextCast(type: ScalarType, text: string): string | undefined {
    if (type === 'datetime' && POSTGRES_INSTANT_TEXT.test(text)) return '::timestamptz';
    if (type === 'number' && POSTGRES_NON_FINITE.has(text)) return '::double precision';
    return undefined;
  },
  limitValue: (count: number) => count,
  storedFoldedColumns: true,
});

const STORAGE: DialectStorage = Object.freeze({
  columnType: (type: ScalarType) => POSTGRES_TYPES[type],
  storedValue: (typed: string | number | boolean, type: ScalarType) => (type === 'datetime' ? postgresTimestamp(typed as number) : typed),
  recordColumnType: 'json',
  tableSuffix: '',
  // PostgreSQL allows 65,535 parameters per statement.
  maxInsertParameters: 60_000,
  indexOrderSuffix: (direction: 'Asc' | 'Desc', nullable: boolean) => (nullable ? nullsPlaced(direction) : plainOrder(direction)),
  concurrentIndexes: true,
  coveringIndexes: true,
  trigramIndexes: true,
  counterTable: postgresCounterDdl,
});

/**
 * The PostgreSQL dialect: `$n` placeholders, `lower(… COLLATE "pg_unicode_fast")`
 * folding, `= ANY($1::type[])` lists, `timestamptz` datetimes, covering,
 * concurrent and trigram indexes, and values read back exactly.
 *
 * @example
 * toSql({ filter: 'Id.Equal(5)' }, { dialect: POSTGRES_DIALECT, schema }).where; // '"Id" = $1'
 */
export const POSTGRES_DIALECT: Dialect = Object.freeze({ name: RULES.name, rules: RULES, driver: POSTGRES_DRIVER, storage: STORAGE });
