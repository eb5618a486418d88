/**
 * The language server's reading of a project's `wepql.config.json`: the
 * same `loadConfig` as `wepql lint`, under the same project rule
 * (`projectTrust`: a `schema`, `previousSchema` or `policy` outside the
 * workspace and the config's directory is refused, never read), and a
 * config it cannot use becomes a diagnostic on the config file at the key
 * at fault, so that the editor shows why, not only a line in a log. The
 * `database` key is never acted on here: the editor reads no database.
 */
import { pathToFileURL } from 'node:url';
import { TextDocument, type Range } from 'vscode-languageserver-textdocument';
import { ConfigKeyError, findConfig, loadConfig, projectTrust, type LintConfig } from '../workspace/config.js';
import { jsonMembers, readJsonTreeTolerantly } from '../workspace/json-positions.js';
import { readRegularText } from '../workspace/source-text.js';

/** What a path outside the project is told in the editor (the command line's `--allow-outside` has no equal here). */
const OUTSIDE_HINT = 'the language server reads no file outside the workspace';

/** A config the server could not use: the file (as a URI), the message, and where in the file. */
export interface ConfigProblem {
  readonly uri: string;
  readonly message: string;
  readonly range: Range;
}

/**
 * The config that applies to a workspace (empty when there is none or it
 * cannot be used), and its problems: why it cannot be used, or each rule of
 * a code that does not exist (left out; the rest applies).
 */
export interface ProjectConfig {
  readonly config: LintConfig;
  readonly problems: readonly ConfigProblem[];
}

/**
 * Reads the config that applies to the workspace `root` (the nearest
 * `wepql.config.json` from it upward), confined to the project.
 *
 * @example
 * const { config, problem } = readProjectConfig('/repo');
 */
export function readProjectConfig(root: string): ProjectConfig {
  const file = findConfig(root);
  if (file === undefined) return { config: {}, problems: [] };
  const uri = pathToFileURL(file).href;
  const atStart = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const atKey = (e: ConfigKeyError): ConfigProblem => ({ uri, message: `${e.key}: ${e.reason}`, range: keyRange(file, e.key) ?? atStart });
  const unknownCodes: ConfigKeyError[] = [];
  try {
    const config = loadConfig(file, projectTrust(file, root, OUTSIDE_HINT), { unknownCodes });
    return { config, problems: unknownCodes.map(atKey) };
  } catch (e) {
    if (!(e instanceof ConfigKeyError)) return { config: {}, problems: [{ uri, message: (e as Error).message, range: atStart }] };
    return { config: {}, problems: [atKey(e)] };
  }
}

/**
 * Where the member a key path names (`rules.bogus`, `overrides[0].files`)
 * is written, key and value; undefined for the whole document (`$`) or a
 * path not found.
 */
function keyRange(file: string, key: string): Range | undefined {
  let text: string;
  try {
    text = readRegularText(file, 'config');
  } catch {
    return undefined;
  }
  let node = readJsonTreeTolerantly(text);
  let span: { start: number; end: number } | undefined;
  if (key === '$') return undefined;
  for (const step of key.split(/\.|(?=\[)/)) {
    if (node === undefined) return undefined;
    const index = /^\[(\d+)\]$/.exec(step);
    if (index !== null) {
      node = node.type === 'array' ? node.children?.[Number(index[1])] : undefined;
      if (node !== undefined) span = { start: node.offset, end: node.offset + node.length };
      continue;
    }
    // The last member of that name: the one `jsonValue` keeps, so the one the message is about.
    const member = [...jsonMembers(node)].reverse().find(([k]) => k === step);
    if (member === undefined) return undefined;
    const [, value, keyNode] = member;
    span = { start: keyNode.offset, end: value.offset + value.length };
    node = value;
  }
  if (span === undefined) return undefined;
  const doc = TextDocument.create('', 'json', 0, text);
  return { start: doc.positionAt(span.start), end: doc.positionAt(span.end) };
}
