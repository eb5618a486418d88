/**
 * One notion of whitespace and characters in every stage that reads filter
 * text (docs/reference.md §"Lexical rules"): whitespace is space, tab, CR
 * and LF, nothing else. Every other character JavaScript's `\s` matches
 * (U+00A0, U+2028, U+FEFF, …), every format character (general category
 * Cf: U+00AD, U+200B…U+200F, U+2060, …) and the characters no value may
 * hold (U+0000, unpaired surrogates) are ordinary characters: part of a
 * name or a value, never skipped.
 *
 * Each character is put between tokens, inside a bare value, around a
 * date-only value and at the start of a line of a `.txt` saved-filter file,
 * and the parser (`parseFilter`, and `analyzeFilter` with a
 * schema) is the reference: where it reads the character as whitespace,
 * completion, explain, semantic tokens (`filterSpans`, `highlightTokens`),
 * date-only detection and lint read the text as it reads it; where it
 * reports an error, none of them reads the character as whitespace.
 *
 * `dateOnlyDay` once trimmed its input with `String.prototype.trim` while
 * the validator reads a value untrimmed, so a quoted `' 2020-01-01'` found a
 * day where the validator found no datetime; the date-only checks below
 * keep it exact.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWhitespace, trimWhitespace } from '../../src/ast/lexical.js';
import type { FilterNode } from '../../src/ast/nodes.js';
import {
  analyzeFilter,
  defineSchema,
  hasErrors,
  lintText,
  parseFilter,
  printFilter,
  complete,
  explain,
  highlightTokens,
} from '../../src/index.js';
import { filterSpans } from '../../src/lsp/semantic-tokens.js';
import { dateOnlyDay } from '../../src/schema/date-only.js';
import { parseDatetimeText, parseNumberText } from '../../src/schema/values.js';
import { readSavedFilters } from '../../src/workspace/saved-filters.js';

const schema = defineSchema({
  fields: {
    HireDate: { type: 'datetime', nullable: true },
    LastName: { type: 'string' },
    FirstName: { type: 'string' },
    Age: { type: 'integer' },
    Active: { type: 'boolean' },
  },
});

function codePoints(last: number, keep: (ch: string) => boolean): number[] {
  const out: number[] = [];
  for (let c = 0; c <= last; c++) if (keep(String.fromCodePoint(c))) out.push(c);
  return out;
}

/** Every character JavaScript's `\s` (and so `String.prototype.trim`) matches; all are in the BMP. */
const JS_SPACES = codePoints(0xffff, (ch) => /\s/.test(ch));
/** Every format character (general category Cf), astral ones included. */
const FORMAT_CHARACTERS = codePoints(0x10ffff, (ch) => /\p{Cf}/u.test(ch));
/** Characters no value may hold (`invalid-character`): U+0000 and unpaired surrogates. */
const INVALID_CHARACTERS = [0x0000, 0xd800, 0xdbff, 0xdc00, 0xdfff];
const CHARACTERS: readonly string[] = [...new Set([...JS_SPACES, ...FORMAT_CHARACTERS, ...INVALID_CHARACTERS])]
  .sort((a, b) => a - b)
  .map((c) => String.fromCodePoint(c));

const isSpace = (ch: string): boolean => ch.length === 1 && isWhitespace(ch.charCodeAt(0));
const isInvalid = (ch: string): boolean => ch.length === 1 && INVALID_CHARACTERS.includes(ch.charCodeAt(0));
const name = (ch: string): string => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Where a character stands in a filter text. */
type Where = 'between' | 'edge' | 'inside' | 'quoted';

/** One place to put a character, with what completion must offer there. */
interface Place {
  readonly name: string;
  readonly where: Where;
  /** The filter text with `ch` at this place (`ch` empty: the text without it). */
  readonly text: (ch: string) => string;
  /** Text typed up to a cursor after the character, and the label completion offers there when the whole text is valid. */
  readonly completes?: { readonly typed: (ch: string) => string; readonly label: string };
  /** The value is date-only on a datetime field (`HireDate`). */
  readonly dateOnly?: true;
}

const PLACES: readonly Place[] = [
  // (a) between tokens
  {
    name: 'before a clause',
    where: 'between',
    text: (c) => `${c}LastName.IsNull()`,
    completes: { typed: (c) => `${c}Last`, label: 'LastName' },
  },
  {
    name: 'between a field and its dot',
    where: 'between',
    text: (c) => `LastName${c}.IsNull()`,
    completes: { typed: (c) => `LastName${c}.IsN`, label: 'IsNull' },
  },
  {
    name: 'between the dot and the operator',
    where: 'between',
    text: (c) => `LastName.${c}IsNull()`,
    completes: { typed: (c) => `LastName.${c}IsN`, label: 'IsNull' },
  },
  {
    name: "between an operator and its '('",
    where: 'between',
    text: (c) => `Active.Equal${c}(true)`,
    completes: { typed: (c) => `Active.Equal${c}(tr`, label: 'true' },
  },
  { name: 'after a clause', where: 'between', text: (c) => `LastName.IsNull()${c}` },
  {
    name: "after ';'",
    where: 'between',
    text: (c) => `Age.IsNull();${c}LastName.IsNull()`,
    completes: { typed: (c) => `Age.IsNull();${c}Last`, label: 'LastName' },
  },
  {
    name: "between Or and '('",
    where: 'between',
    text: (c) => `Or${c}(LastName.IsNull();Age.IsNull())`,
    completes: { typed: (c) => `Or${c}(Last`, label: 'LastName' },
  },
  {
    name: "after a group's '('",
    where: 'between',
    text: (c) => `Or(${c}LastName.IsNull();Age.IsNull())`,
    completes: { typed: (c) => `Or(${c}Last`, label: 'LastName' },
  },
  {
    name: 'between the fields of an InFields list',
    where: 'between',
    text: (c) => `'x'.EqualInFields(LastName,${c}FirstName)`,
    completes: { typed: (c) => `'x'.EqualInFields(LastName,${c}First`, label: 'FirstName' },
  },
  // (b) in a bare value
  {
    name: 'before a bare value',
    where: 'edge',
    text: (c) => `Active.Equal(${c}true)`,
    completes: { typed: (c) => `Active.Equal(${c}tr`, label: 'true' },
  },
  { name: 'after a bare number', where: 'edge', text: (c) => `Age.Equal(1${c})` },
  { name: 'before a list value', where: 'edge', text: (c) => `Age.InArray(1,${c}2)` },
  { name: 'inside a bare text', where: 'inside', text: (c) => `LastName.Equal(a${c}b)` },
  { name: 'inside a bare number', where: 'inside', text: (c) => `Age.Equal(1${c}2)` },
  { name: 'inside a quoted text', where: 'quoted', text: (c) => `LastName.Equal('${c}x')` },
  // (c) around a date-only value
  { name: 'before a date', where: 'edge', text: (c) => `HireDate.Equal(${c}2020-01-01)`, dateOnly: true },
  { name: 'after a date', where: 'edge', text: (c) => `HireDate.Equal(2020-01-01${c})`, dateOnly: true },
  { name: 'before a date, negated', where: 'edge', text: (c) => `HireDate.NotEqual(${c}2020-01-01)`, dateOnly: true },
  { name: 'before a listed date', where: 'edge', text: (c) => `HireDate.InArray(2019-12-31,${c}2020-01-01)`, dateOnly: true },
  { name: 'inside a quoted date', where: 'quoted', text: (c) => `HireDate.Equal('${c}2020-01-01')`, dateOnly: true },
];

const errorCodes = (diagnostics: readonly { severity: string; code: string }[]): string[] =>
  diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

/** The values of the conditions, in text order. */
function valuesOf(nodes: readonly FilterNode[]): string[] {
  return nodes.flatMap((n): string[] => {
    if (n.kind === 'group') return valuesOf(n.children);
    if (n.kind === 'comparison' || n.kind === 'in-fields') return [n.value.value];
    if (n.kind === 'list') return n.values.map((v) => v.value);
    return [];
  });
}

const covers = (spans: readonly { start: number; end: number }[], offset: number): boolean =>
  spans.some((s) => s.start <= offset && offset < s.end);

/**
 * The parser against the lexical rules: a whitespace character between
 * tokens or at the edge of a bare value changes nothing; any other
 * character there is part of a name or of the value.
 */
function checkParser(place: Place, ch: string): void {
  const text = place.text(ch);
  const parsed = parseFilter(text);
  const clean = parseFilter(place.text(''));
  const skipped = isSpace(ch) && (place.where === 'between' || place.where === 'edge');
  if (skipped) {
    expect(parsed.diagnostics.map((d) => d.code)).toEqual(clean.diagnostics.map((d) => d.code));
    expect(valuesOf(parsed.ast.clauses)).toEqual(valuesOf(clean.ast.clauses));
  } else if (place.where === 'between') {
    expect(errorCodes(parsed.diagnostics).length).toBeGreaterThan(0);
  } else if (isInvalid(ch)) {
    expect(errorCodes(parsed.diagnostics)).toContain('invalid-character');
  } else {
    expect(errorCodes(parsed.diagnostics)).toEqual([]);
    expect(valuesOf(parsed.ast.clauses).some((v) => v.includes(ch))).toBe(true);
  }
}

/** Lint and explain: valid exactly where the parser (and the validator) say so, reading the same values. */
function checkLintAndExplain(text: string): void {
  const parsed = parseFilter(text);
  const analyzed = analyzeFilter(text, { schema });
  const lint = lintText(text, 'filter', { schema });
  expect(hasErrors(lint)).toBe(hasErrors(analyzed.diagnostics));
  for (const code of errorCodes(parsed.diagnostics)) expect(errorCodes(lint)).toContain(code);
  const plain = explain(text).value;
  expect(plain !== undefined).toBe(!hasErrors(parsed.diagnostics));
  const typed = explain(text, { schema }).value;
  expect(typed !== undefined).toBe(!hasErrors(analyzed.diagnostics));
  // The printed form writes the values the parser read (quoted where needed); explain must read the same.
  if (typed !== undefined) expect(typed).toBe(explain(printFilter(parsed.ast), { schema }).value);
  if (plain !== undefined) expect(plain).toBe(explain(printFilter(parsed.ast)).value);
}

/**
 * Semantic tokens: `filterSpans` colours the scanner's tokens, so a character
 * is inside a span exactly when it is not whitespace (or is quoted); the
 * whitespace inside a bare value stays uncoloured, as an LSP token may not
 * cross a line. `highlightTokens` colours the parser's nodes, so it covers
 * the character exactly when the parser does not skip it. A value's words
 * are a number only when the parser's value is one.
 */
function checkTokens(text: string, offset: number, ch: string, where: Where): void {
  const spans = filterSpans(text);
  expect(covers(spans, offset)).toBe(!isSpace(ch) || where === 'quoted');
  const parsed = parseFilter(text);
  if (hasErrors(parsed.diagnostics)) return;
  const skipped = isSpace(ch) && (where === 'between' || where === 'edge');
  expect(covers(highlightTokens(text), offset)).toBe(!skipped);
  const stack = [...parsed.ast.clauses];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'group') stack.push(...node.children);
    const values = node.kind === 'comparison' ? [node.value] : node.kind === 'list' ? node.values : [];
    for (const v of values) {
      if (v.quoted) continue;
      const inside = spans.filter((s) => s.start >= v.span.start && s.end <= v.span.end && s.type !== 'operator');
      const expected = /^-?\d+(\.\d+)?$/.test(v.value) && parseNumberText(v.value) !== undefined ? 'number' : 'string';
      for (const s of inside) expect(s.type, `${JSON.stringify(v.value)} in ${JSON.stringify(text)}`).toBe(expected);
    }
  }
}

/** Completion offers the next word after the character exactly when the completed text is valid. */
function checkCompletion(place: Place, ch: string): void {
  if (place.completes === undefined) return;
  const typed = place.completes.typed(ch);
  const labels = complete(typed, typed.length, schema).items.map((i) => i.label);
  const valid = !hasErrors(analyzeFilter(place.text(ch), { schema }).diagnostics);
  expect(labels.includes(place.completes.label), `${JSON.stringify(typed)} offers ${place.completes.label}`).toBe(valid);
}

/** Date-only values: lint warns, explain names the instant, and `dateOnlyDay` finds the day, exactly where the validator reads a date. */
function checkDateOnly(place: Place, ch: string): void {
  if (place.dateOnly === undefined) return;
  const text = place.text(ch);
  const valid = !hasErrors(analyzeFilter(text, { schema }).diagnostics);
  expect(lintText(text, 'filter', { schema }).some((d) => d.code === 'date-only-equality')).toBe(valid);
  expect(explain(text, { schema }).value?.includes('2020-01-01T00:00:00Z') ?? false).toBe(valid);
  for (const v of valuesOf(parseFilter(text).ast.clauses)) {
    expect(dateOnlyDay(v) !== undefined, JSON.stringify(v)).toBe(parseDatetimeText(v) !== undefined);
  }
}

function checkAll(place: Place, ch: string): void {
  const text = place.text(ch);
  const offset = place.text('\u0001').indexOf('\u0001');
  checkParser(place, ch);
  checkLintAndExplain(text);
  checkTokens(text, offset, ch, place.where);
  checkCompletion(place, ch);
  checkDateOnly(place, ch);
}

describe('the table of characters', () => {
  it('JavaScript whitespace and format characters are what this test puts in filters', () => {
    expect(JS_SPACES).toEqual([
      0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
      0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
    ]);
    for (const c of [0x00ad, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2060, 0xfeff, 0xe0001])
      expect(FORMAT_CHARACTERS, name(String.fromCodePoint(c))).toContain(c);
    expect(CHARACTERS.filter(isSpace).map(name)).toEqual(['U+0009', 'U+000A', 'U+000D', 'U+0020']);
  });

  it('a line of a .txt saved-filter file is blank or a comment exactly when the parser reads its start as whitespace', () => {
    for (const ch of CHARACTERS) {
      const entries = readSavedFilters('saved.txt', `${ch}\n${ch}# note\nLastName.IsNull()\n`).entries.map((e) => e.text);
      const blank = parseFilter(ch);
      expect(blank.ast.clauses.length === 0 && blank.diagnostics.length === 0, name(ch)).toBe(isSpace(ch));
      expect(entries, name(ch)).toEqual(isSpace(ch) ? ['LastName.IsNull()'] : [ch, `${ch}# note`, 'LastName.IsNull()']);
    }
  });

  describe.each(PLACES.map((p) => [p.name, p] as const))('%s', (_name, place) => {
    it('every character of the table: each stage reads it as the parser does', () => {
      for (const ch of CHARACTERS) {
        try {
          checkAll(place, ch);
        } catch (error) {
          throw new Error(`${name(ch)} ${place.name}: ${JSON.stringify(place.text(ch))}: ${(error as Error).message}`, { cause: error });
        }
      }
    });
  });
});

// A random filter: clauses whose separators and values hold characters of the table, mostly the language's whitespace.
const space = fc.constantFrom(' ', '\t', '\r', '\n');
const separator = fc.oneof(
  { weight: 3, arbitrary: fc.array(space, { maxLength: 2 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...CHARACTERS), { minLength: 1, maxLength: 2 }).map((a) => a.join('')) },
);
const clause = fc.record({
  field: fc.constantFrom('LastName', 'FirstName', 'Age'),
  words: fc.array(fc.constantFrom('a', 'Sm', '1', '25', '-3'), { minLength: 1, maxLength: 2 }),
  // Before the field, between field and dot, dot and operator, operator and '(', then around and between the words, after ')'.
  gaps: fc.array(separator, { minLength: 8, maxLength: 8 }),
});

interface Built {
  readonly text: string;
  /** The characters between tokens, with their offsets. */
  readonly between: readonly { offset: number; ch: string }[];
  /** Each clause's field start and the value the lexical rules give. */
  readonly clauses: readonly { fieldAt: number; field: string; value: string }[];
}

function build(clauses: readonly { field: string; words: readonly string[]; gaps: readonly string[] }[]): Built {
  let text = '';
  const between: { offset: number; ch: string }[] = [];
  const out: { fieldAt: number; field: string; value: string }[] = [];
  const gap = (g: string): void => {
    // By code point, as the text holds them: two generated surrogates may pair up into one character.
    for (const ch of g) {
      between.push({ offset: text.length, ch });
      text += ch;
    }
  };
  clauses.forEach((c, n) => {
    if (n > 0) text += ';';
    const [g0, g1, g2, g3, g4, g5, g6, g7] = c.gaps as [string, string, string, string, string, string, string, string];
    gap(g0);
    const fieldAt = text.length;
    text += c.field;
    gap(g1);
    text += '.';
    gap(g2);
    text += 'Equal';
    gap(g3);
    text += '(';
    const raw = `${g4}${c.words[0]!}${c.words.length > 1 ? `${g5}${c.words[1]!}` : ''}${g6}`;
    text += `${raw})`;
    gap(g7);
    out.push({ fieldAt, field: c.field, value: trimWhitespace(raw) });
  });
  return { text, between, clauses: out };
}

describe('random filters with characters of the table', () => {
  it('parser, lint, explain, semantic tokens and completion agree on what is whitespace', () => {
    fc.assert(
      fc.property(fc.array(clause, { minLength: 1, maxLength: 3 }), (clauses) => {
        const built = build(clauses);
        const { text } = built;
        const parsed = parseFilter(text);
        const betweenOk = built.between.every((b) => isSpace(b.ch));
        const invalidValue = built.clauses.some((c) => [...c.value].some((ch) => isInvalid(ch)));
        if (betweenOk && !invalidValue) {
          expect(errorCodes(parsed.diagnostics)).toEqual([]);
          expect(valuesOf(parsed.ast.clauses)).toEqual(built.clauses.map((c) => c.value));
        }
        if (!betweenOk) expect(errorCodes(parsed.diagnostics).length).toBeGreaterThan(0);
        checkLintAndExplain(text);
        const spans = filterSpans(text);
        for (const b of built.between) expect(covers(spans, b.offset), `${name(b.ch)} at ${b.offset}`).toBe(!isSpace(b.ch));
        for (const c of built.clauses) {
          const typed = text.slice(0, c.fieldAt + 2);
          const labels = complete(typed, typed.length, schema).items.map((i) => i.label);
          const before = text.slice(text.lastIndexOf(';', c.fieldAt) + 1, c.fieldAt);
          expect(labels.includes(c.field), JSON.stringify(typed)).toBe([...before].every(isSpace));
        }
      }),
      { numRuns: 300 },
    );
  });
});
