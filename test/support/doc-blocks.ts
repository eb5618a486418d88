/**
 * The code blocks of README.md and docs/*.md, for the test that runs them
 * (test/unit/docs/docs-blocks.test.ts). A block is a program (```ts, ```js)
 * or a command (```sh, ```console) — or something else (output, data,
 * grammar, editor configuration), which is not run.
 *
 * How a program or command runs is said in HTML comments right above its
 * fence (invisible on the rendered page), one directive each:
 *
 *   <!-- docs-test: skip REASON -->        not runnable here, and why
 *   <!-- docs-test: prelude CODE -->       code run first: the imports and values the page set up earlier
 *   <!-- docs-test: postgres -->           DATABASE_URL names a real PostgreSQL 15 database seeded by `wepql db-seed`
 *   <!-- docs-test: env {"NAME":"value"} --> extra environment variables
 *   <!-- docs-test: serve PATH -->         the program is a server: once it prints "listening on URL", GET URL+PATH must answer 200
 *   <!-- docs-test: same-as FILE -->       the block is FILE verbatim (FILE is run by its own test)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The languages of blocks that are programs. */
export const PROGRAM_LANGUAGES: ReadonlySet<string> = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs']);
/** The languages of blocks that are commands. */
export const COMMAND_LANGUAGES: ReadonlySet<string> = new Set(['sh', 'bash', 'shell', 'console']);

/** One directive above a block. */
export interface DocDirective {
  readonly name: 'skip' | 'prelude' | 'postgres' | 'env' | 'serve' | 'same-as';
  readonly argument: string;
}

/** A fenced code block of a markdown file. */
export interface DocBlock {
  /** `docs/sql.md` */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: string;
  readonly code: string;
  readonly directives: readonly DocDirective[];
}

const DIRECTIVE = /^\s*<!--\s*docs-test:\s*(skip|prelude|postgres|env|serve|same-as)\b([\s\S]*?)-->\s*$/;

/** The directives in the comments just above line `fence` (0-based), nearest last. */
function directivesAbove(lines: readonly string[], fence: number): DocDirective[] {
  const found: DocDirective[] = [];
  let i = fence - 1;
  while (i >= 0) {
    // A comment may span lines: find its start.
    if (!lines[i]!.trimEnd().endsWith('-->')) break;
    let start = i;
    while (start >= 0 && !lines[start]!.includes('<!--')) start--;
    if (start < 0) break;
    const text = lines.slice(start, i + 1).join('\n');
    const m = DIRECTIVE.exec(text);
    if (m === null) break;
    found.unshift({ name: m[1] as DocDirective['name'], argument: m[2]!.trim() });
    i = start - 1;
  }
  return found;
}

/**
 * Every fenced block of one markdown text.
 *
 * @example
 * blocksOf('docs/sql.md', readFileSync('docs/sql.md', 'utf8'));
 */
export function blocksOf(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+)([\w-]*)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    const [, indent, fence, language] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() !== fence) {
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!);
      j++;
    }
    blocks.push({ file, line: i + 1, language: language!, code: body.join('\n'), directives: directivesAbove(lines, i) });
    i = j;
  }
  return blocks;
}

/**
 * The blocks of README.md and every docs/*.md under `root`.
 *
 * @example
 * allDocBlocks(ROOT).filter((b) => PROGRAM_LANGUAGES.has(b.language));
 */
export function allDocBlocks(root: string): DocBlock[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
  return files.flatMap((file) => blocksOf(file, readFileSync(join(root, file), 'utf8')));
}

/**
 * The argument of a block's directive, or undefined without one.
 *
 * @example
 * directive(block, 'skip'); // 'installs from the registry'
 */
export function directive(block: DocBlock, name: DocDirective['name']): string | undefined {
  return block.directives.find((d) => d.name === name)?.argument;
}
