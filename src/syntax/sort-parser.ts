/**
 * The sort language (docs/reference.md §"Sort grammar", grammar/sort.ebnf): its own
 * small Chevrotain
 * lexer, where `=` separates a field from its direction, and a permissive
 * parser whose actions report every problem of every item in one pass.
 */
import { createToken, EmbeddedActionsParser, EOF, Lexer, type ILexerConfig, type IToken, type TokenType } from 'chevrotain';
import type { SortItemNode } from '../ast/nodes.js';
import { SORT_DIRECTIONS, type SortDirection } from '../ast/operators.js';
import { DEFAULT_LIMITS, LIMIT_CODES, limitMessage, type Limits } from '../diagnostics/limits.js';
import { nearestName } from '../diagnostics/suggest.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import { isSpaceCode, wordStartChars } from './characters.js';
import { excerpt } from './text-checks.js';
import { lazyLexer } from './shielded.js';
import { isIdentifier } from '../ast/lexical.js';

/**
 * Tokens that make up a sort item (a token category).
 *
 * @example
 * sortLexer.tokenize('A=Asc').tokens.every((t) => tokenMatcher(t, SortItemPart)); // true
 */
export const SortItemPart = createToken({ name: 'SortItemPart', pattern: Lexer.NA });
/**
 * Space, tab, CR, LF: ignored.
 *
 * @example
 * sortLexer.tokenize(' A ').tokens.length; // 1: the spaces are skipped
 */
export const SortWhiteSpace = createToken({ name: 'SortWhiteSpace', pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED, line_breaks: true });
/**
 * `;` — separates items.
 *
 * @example
 * sortLexer.tokenize(';').tokens[0]!.tokenType === SortSemicolon; // true
 */
export const SortSemicolon = createToken({ name: 'SortSemicolon', pattern: ';', label: "';'" });
/**
 * `,` — not a separator, but recognised so that the error can say to use `;`.
 *
 * @example
 * sortLexer.tokenize(',').tokens[0]!.tokenType === SortComma; // true
 */
export const SortComma = createToken({ name: 'SortComma', pattern: ',', label: "','" });
/**
 * `=` — between field and direction.
 *
 * @example
 * sortLexer.tokenize('A=Asc').tokens[1]!.tokenType === SortEquals; // true
 */
export const SortEquals = createToken({ name: 'SortEquals', pattern: '=', label: "'='", categories: [SortItemPart] });
/**
 * A field path or a direction: a run of characters other than `;,=` and whitespace.
 *
 * @example
 * sortLexer.tokenize('Address.Zip').tokens[0]!.image; // 'Address.Zip'
 */
export const SortWord = createToken({
  name: 'SortWord',
  pattern: /[^;,= \t\r\n]+/,
  start_chars_hint: wordStartChars((c) => c === 59 || c === 44 || c === 61 || isSpaceCode(c)),
  line_breaks: false,
  categories: [SortItemPart],
});

/**
 * Every sort token, in lexing priority order.
 *
 * @example
 * const lexer = new Lexer(SORT_TOKENS, { positionTracking: 'onlyOffset' });
 */
export const SORT_TOKENS: TokenType[] = [SortWhiteSpace, SortSemicolon, SortComma, SortEquals, SortWord, SortItemPart];

/**
 * How the sort lexer is built: Chevrotain's checks of the token definitions
 * skipped, as for the filter lexer (`FILTER_LEXER_CONFIG`).
 *
 * @example
 * new Lexer(SORT_TOKENS, { ...SORT_LEXER_CONFIG, skipValidations: false });
 */
export const SORT_LEXER_CONFIG: ILexerConfig = { positionTracking: 'onlyOffset', ensureOptimizations: true, skipValidations: true };

/**
 * The sort lexer: one instance, reused, built on its first call.
 *
 * @example
 * sortLexer.tokenize('A=Asc;B').tokens.map((t) => t.image); // ['A', '=', 'Asc', ';', 'B']
 */
export const sortLexer = lazyLexer(() => new Lexer(SORT_TOKENS, SORT_LEXER_CONFIG));

function endOf(t: IToken): number {
  return t.startOffset + t.image.length;
}

const DIRECTION_BY_LOWER: ReadonlyMap<string, SortDirection> = new Map(SORT_DIRECTIONS.map((d) => [d.toLowerCase(), d] as const));

/**
 * Chevrotain parser of sorts; one instance is reused for every parse.
 *
 * @example
 * const parser = new SortParser();
 * parser.prepare(text, DEFAULT_LIMITS, sink);
 * parser.input = sortLexer.tokenize(text).tokens;
 * const items = parser.sort();
 */
export class SortParser extends EmbeddedActionsParser {
  private text = '';
  private sink = new DiagnosticSink(0, 0);
  private limits: Limits = DEFAULT_LIMITS;
  private count = 0;
  private readonly seen = new Map<string, true>();

  /** `validate` runs Chevrotain's grammar checks, which production skips (see `FilterParser`). */
  constructor({ validate = false }: { readonly validate?: boolean } = {}) {
    super(SORT_TOKENS, { maxLookahead: 1, recoveryEnabled: false, skipValidations: !validate });
    this.performSelfAnalysis();
  }

  /** Prepares the parser for one text; call before setting `input`. */
  prepare(text: string, limits: Limits, sink: DiagnosticSink): void {
    this.text = text;
    this.limits = limits;
    this.sink = sink;
    this.count = 0;
    this.seen.clear();
  }

  /** The first token the last parse left unread, if any (never, unless the grammar has a defect). */
  unreadToken(): IToken | undefined {
    const t = this.LA(1);
    return t.tokenType === EOF ? undefined : t;
  }

  // sort = [ item { ";" item } ] ;   a "," separator is accepted here and reported
  readonly sort = this.RULE('sort', (): SortItemNode[] => {
    const items: SortItemNode[] = [];
    let pendingSeparator: IToken | undefined;
    let slotNonEmpty = false;
    const first = this.OPTION(() => this.SUBRULE(this.item));
    if (!this.RECORDING_PHASE && first !== undefined) {
      slotNonEmpty = true;
      if (first !== null) items.push(first);
    }
    this.MANY(() => {
      const separator = this.OR([{ ALT: () => this.CONSUME(SortSemicolon) }, { ALT: () => this.CONSUME(SortComma) }]);
      if (!this.RECORDING_PHASE) {
        if (separator.tokenType === SortComma) {
          this.sink.add(
            'sort-comma-separator',
            "sort items are separated by ';', not ','; write A=Asc;B=Desc",
            separator.startOffset,
            endOf(separator),
            {
              suggestion: ';',
              fix: [{ start: separator.startOffset, end: endOf(separator), newText: ';' }],
            },
          );
        }
        if (slotNonEmpty) pendingSeparator ??= separator;
        else this.reportEmptyItem(separator);
        slotNonEmpty = false;
      }
      const next = this.OPTION2(() => this.SUBRULE2(this.item));
      if (!this.RECORDING_PHASE && next !== undefined) {
        slotNonEmpty = true;
        pendingSeparator = undefined;
        if (next !== null) items.push(next);
      }
    });
    if (!this.RECORDING_PHASE && pendingSeparator !== undefined) this.reportEmptyItem(pendingSeparator);
    return items;
  });

  // item = field [ "=" direction ] ;   parsed as a run of words and '=' and checked by buildItem
  readonly item = this.RULE('item', (): SortItemNode | null => {
    const parts: IToken[] = [];
    this.AT_LEAST_ONE(() => {
      parts.push(this.CONSUME(SortItemPart));
    });
    if (this.RECORDING_PHASE) return null;
    return this.buildItem(parts);
  });

  private reportEmptyItem(separator: IToken): void {
    this.sink.add(
      'empty-clause',
      'empty sort item: nothing stands on one side of this separator; it is ignored',
      separator.startOffset,
      endOf(separator),
      {
        fix: [{ start: separator.startOffset, end: endOf(separator), newText: '' }],
      },
    );
  }

  /** The node of one item `field [= direction]` from its tokens, or null when it has a problem (reported). */
  private buildItem(parts: IToken[]): SortItemNode | null {
    const first = parts[0]!;
    const span = { start: first.startOffset, end: endOf(parts[parts.length - 1]!) };
    const counted = this.countItem(span.start);
    let eq = -1;
    for (let i = 0; i < parts.length; i++) {
      if (parts[i]!.tokenType === SortEquals) {
        eq = i;
        break;
      }
    }
    const field = this.readField(parts, eq < 0 ? parts.length : eq);
    const explicitDirection = eq >= 0;
    let direction: SortDirection | null = 'Asc';
    if (explicitDirection) direction = this.readDirection(parts, eq, span.end);
    else if (field !== null) this.reportImplicitDirection(field.name, span);
    if (field !== null) this.checkDuplicate(field);
    if (!counted || direction === null || field === null) return null;
    return { kind: 'sort-item', field, direction, explicitDirection, span };
  }

  /** Counts the item against maxSortKeys; false past the limit (reported once). */
  private countItem(start: number): boolean {
    this.count++;
    if (this.count <= this.limits.maxSortKeys) return true;
    if (this.count === this.limits.maxSortKeys + 1) {
      this.sink.add(LIMIT_CODES.maxSortKeys, limitMessage('maxSortKeys', this.limits.maxSortKeys), start, this.text.length);
    }
    return false;
  }

  /** field = segment { "." segment }, from `parts[0, fieldEnd)`; null when it is missing or not a path (reported). */
  private readField(parts: IToken[], fieldEnd: number): SortItemNode['field'] | null {
    const first = parts[0]!;
    if (fieldEnd === 0) {
      this.sink.add('invalid-field-path', "missing field before '='; write Field=Asc", first.startOffset, endOf(first));
      return null;
    }
    // Whitespace may stand around a '.' as between any two tokens (docs/reference.md §"Lexical rules"),
    // as in a filter's `Address . Zip`; anywhere else it splits the name.
    const from = first.startOffset;
    const to = endOf(parts[fieldEnd - 1]!);
    let image = first.image;
    let spaced = false;
    for (let i = 1; i < fieldEnd && !spaced; i++) {
      const piece = parts[i]!.image;
      if (image.endsWith('.') || piece.startsWith('.')) image += piece;
      else spaced = true;
    }
    const path = image.split('.');
    if (spaced) {
      this.sink.add('invalid-field-path', `a field name cannot contain spaces: "${excerpt(this.text.slice(from, to))}"`, from, to);
      return null;
    }
    if (path.some((segment) => !isIdentifier(segment))) {
      this.sink.add(
        'invalid-field-path',
        `"${excerpt(image)}" is not a valid field path; a field is letters, digits and _ (not starting with a digit), with '.' between nested names`,
        from,
        to,
      );
      return null;
    }
    return { kind: 'field', path, name: image, span: { start: from, end: to } };
  }

  /** The direction after the `=` at `parts[eq]`; null when it is missing, not alone or not a direction (reported). */
  private readDirection(parts: IToken[], eq: number, itemEnd: number): SortDirection | null {
    const equals = parts[eq]!;
    const word = parts[eq + 1];
    if (parts.length - eq - 1 === 0 || word === undefined) {
      this.sink.add('invalid-direction', "missing direction after '='; write Asc or Desc", equals.startOffset, endOf(equals), {
        suggestion: 'Asc',
      });
      return null;
    }
    if (word.tokenType === SortEquals || parts.length - eq - 1 > 1) {
      const extra = word.tokenType === SortEquals ? word : parts[eq + 2]!;
      this.sink.add(
        'unexpected-token',
        `unexpected "${excerpt(extra.image)}" in the sort item; write Field=Asc or Field=Desc`,
        extra.startOffset,
        itemEnd,
      );
      return null;
    }
    const found = DIRECTION_BY_LOWER.get(word.image.toLowerCase());
    if (found !== undefined) return found;
    const suggestion = nearestName(word.image, SORT_DIRECTIONS);
    this.sink.add(
      'invalid-direction',
      suggestion === undefined
        ? `"${excerpt(word.image)}" is not a sort direction; write Asc or Desc`
        : `"${excerpt(word.image)}" is not a sort direction; did you mean "${suggestion}"?`,
      word.startOffset,
      endOf(word),
      suggestion === undefined ? undefined : { suggestion },
    );
    return null;
  }

  /** A field without `=Direction` sorts ascending; said as a warning whose fix writes `=Asc`. */
  private reportImplicitDirection(name: string, span: { start: number; end: number }): void {
    this.sink.add(
      'implicit-direction',
      `"${excerpt(name)}" has no direction and sorts ascending; write ${excerpt(name)}=Asc`,
      span.start,
      span.end,
      {
        fix: [{ start: span.end, end: span.end, newText: '=Asc' }],
      },
    );
  }

  /** A field already sorted on: the later key has no effect (a warning). */
  private checkDuplicate(field: SortItemNode['field']): void {
    const key = field.name.toLowerCase();
    if (this.seen.has(key)) {
      this.sink.add(
        'duplicate-sort-field',
        `"${excerpt(field.name)}" is already in the sort; this later key has no effect`,
        field.span.start,
        field.span.end,
      );
    } else this.seen.set(key, true);
  }
}
