/**
 * Completion inside groups nested deeper than the parser's ceiling
 * (docs/reference.md §"Limits"): the parser skips such a group's body
 * unread, so completion reads the text again from a body nearer the cursor.
 * These tests count the characters handed to the parser, so that reading
 * again from every skipped body in turn (O(n²) for a group nested n deep)
 * fails without a timed test, and pin the answers where the text around the
 * deep groups is broken.
 */
import { describe, expect, it, vi } from 'vitest';
import { complete } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const read = vi.hoisted(() => ({ chars: 0 }));

vi.mock('../../../src/syntax/parse-filter.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/syntax/parse-filter.js')>();
  return {
    ...original,
    visitFilter: (text: string, visitor: Parameters<typeof original.visitFilter>[1]): void => {
      read.chars += text.length;
      original.visitFilter(text, visitor);
    },
  };
});

const labels = (text: string, at = text.length): string[] => complete(text, at, employeeSchema).items.map((i) => i.label);

/** Characters the parser reads for one completion at the end of `text`, per character of text. */
function readPerChar(text: string): number {
  read.chars = 0;
  complete(text, text.length, employeeSchema);
  return read.chars / text.length;
}

describe('complete: groups nested past the parser ceiling', () => {
  it.each([
    ['open groups', (n: number) => `${'Or('.repeat(n)}LastName.Sta`],
    ['a condition in each group', (n: number) => `${'Or(Gender.Equal(1);'.repeat(n)}Gender.`],
    ['closed deep groups before the cursor', (n: number) => `${'Or('.repeat(n)}A.IsNull()${')'.repeat(n)};${'And('.repeat(n)}Ge`],
  ])('reads %s a bounded number of times per character, at any depth', (_name, text) => {
    // Reading again from each skipped body in turn read ~n/600 times per character: 17 at 10,000, 67 at 40,000.
    for (const depth of [10_000, 40_000]) expect(readPerChar(text(depth))).toBeLessThan(4);
  });

  it.each<[string, string, string[]]>([
    ['a clause in the innermost group', `${'Or('.repeat(500)}LastName.Sta`, ['StartsWith']],
    ['a clause after closed deep groups', `${'Or('.repeat(300)}A.IsNull()${')'.repeat(300)};${'Or('.repeat(300)}Ge`, ['Gender']],
    ['a clause past a separator', `${'Or('.repeat(400)}A.Equal(1);${'Or('.repeat(100)}LastN`, ['LastName']],
    // `Or(` straight after a condition is junk the parser skips to the next `;`, so nothing is offered there.
    ['junk after a condition', `${'Or('.repeat(400)}A.Equal(1)${'Or('.repeat(100)}`, []],
    ['an argument list holding a group keyword', `${'Or('.repeat(400)}B.In(Or(${'Or('.repeat(250)}`, []],
  ])('answers as the parser reads %s', (_name, text, expected) => {
    expect(labels(text)).toEqual(expected);
  });
});
