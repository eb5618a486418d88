/**
 * The order vitest starts the test files in (vitest.config.ts
 * `sequence.sequencer`): longest first, so that the last files to start are
 * short ones and no core idles at the end of the run while one worker
 * finishes a long file started late. vitest's own order sorts by the
 * durations of the last run on this machine; a fresh clone has none and ran
 * its files in glob order, which left the run's slowest files (the
 * topologies, the engine suites) to the end. Durations come from this
 * machine's last run where there is one, else from test/durations.json
 * (committed; `npm run test:durations` rewrites it from the last run's
 * `DurationsReporter` output, .tmp/test-durations.json), and a file in neither is taken for the longest: an unknown file
 * started last could be the one the run waits for.
 *
 * Each project's files stay together: a worker of the `shared` project
 * (isolate: false) runs file after file in one process only while the next
 * file in the queue is of its project, and a queue that alternated would
 * start a fresh worker (and load the library again) for each. The project
 * whose longest known file is the longest goes first.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** test/durations.json: seconds per test file, by path from the repository root. */
export interface DurationsList {
  readonly files: Readonly<Record<string, number>>;
}

/** A file to place: its project, its path from the repository root, its duration when known (seconds). */
export interface FileToOrder {
  readonly project: string;
  readonly path: string;
  readonly seconds: number | undefined;
}

/**
 * The files in the order to start them: by project (the project holding the
 * longest known duration first), then longest first, unknown durations
 * counting as longest, ties by path.
 *
 * @example
 * orderLongestFirst([{ project: 'p', path: 'a', seconds: 1 }, { project: 'p', path: 'b', seconds: 9 }]).map((f) => f.path); // ['b', 'a']
 */
export function orderLongestFirst<T extends FileToOrder>(files: readonly T[]): T[] {
  const weight = (file: FileToOrder): number => file.seconds ?? Number.POSITIVE_INFINITY;
  // By known durations only: one new file must not move its whole project ahead.
  const longest = new Map<string, number>();
  for (const file of files) longest.set(file.project, Math.max(longest.get(file.project) ?? 0, file.seconds ?? 0));
  return [...files].sort(
    (a, b) =>
      (a.project === b.project ? 0 : longest.get(b.project)! - longest.get(a.project)! || (a.project < b.project ? -1 : 1)) ||
      weight(b) - weight(a) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

/**
 * Reads test/durations.json; an absent or unreadable list is an empty one
 * (every file then counts as unknown).
 *
 * @example
 * readDurationsList(new URL('../durations.json', import.meta.url)).files['test/cli/lint.test.ts']; // 14.2
 */
export function readDurationsList(url: URL): DurationsList {
  try {
    const value = JSON.parse(readFileSync(url, 'utf8')) as { files?: unknown };
    const files: Record<string, number> = {};
    if (typeof value.files === 'object' && value.files !== null) {
      for (const [path, seconds] of Object.entries(value.files)) if (typeof seconds === 'number') files[path] = seconds;
    }
    return { files };
  } catch {
    return { files: {} };
  }
}

/**
 * vitest's sequencer with the order of `orderLongestFirst`.
 *
 * @example
 * // vitest.config.ts: sequence: { sequencer: LongestFirstSequencer }
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
    const list = readDurationsList(new URL('../durations.json', import.meta.url));
    const root = this.ctx.config.root.replace(/\/?$/, '/');
    const files = specs.map((spec) => {
      const path = spec.moduleId.startsWith(root) ? spec.moduleId.slice(root.length) : spec.moduleId;
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)?.duration;
      const seconds = cached !== undefined && cached > 0 ? cached / 1000 : list.files[path];
      return { project: spec.project.name, path, seconds, spec };
    });
    return orderLongestFirst(files).map((file) => file.spec);
  }
}

/**
 * Writes each file's duration — its hooks and tests, the figure vitest's
 * own cache keeps — to `outputFile` (seconds by path from the root), for
 * test/durations.json: the JSON reporter's file times leave out the
 * `beforeAll` hooks, which are most of some files (a server to start).
 *
 * @example
 * // vitest.config.ts: reporters: ['default', new DurationsReporter('.tmp/test-durations.json')]
 */
export class DurationsReporter implements Reporter {
  readonly #files: Record<string, number> = {};
  #root = '';

  constructor(private readonly outputFile: string) {}

  onInit(vitest: { readonly config: { readonly root: string } }): void {
    this.#root = vitest.config.root;
  }

  onTestModuleEnd(module: TestModule): void {
    this.#files[relative(this.#root, module.moduleId)] = Math.round(module.diagnostic().duration / 100) / 10;
  }

  onTestRunEnd(): void {
    const path = `${this.#root}/${this.outputFile}`;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify({ files: this.#files }, null, 2)}\n`);
  }
}
