import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { DurationsReporter, LongestFirstSequencer } from './test/support/sequencer.js';

/**
 * Files of the shared-module project that change something process-wide a
 * later file in the same worker would see: a module mock (complete-deep), a
 * time zone (grid-mui). They run isolated, as the end-to-end, engine and
 * topology folders do.
 */
const PROCESS_WIDE = ['test/unit/language-service/complete-deep.test.ts', 'test/property/grid-mui.test.ts'];

/**
 * End-to-end files that run in the shared project's workers: each closes in
 * its own hooks what it starts (an HTTP server on port 0, a child process,
 * a PostgreSQL of its own, a temporary folder) and changes nothing
 * process-wide, and their tests take a second or two — less than the fresh
 * process, and the library loaded again in it, that the isolated project
 * gave each (these nine: 53.7 CPU-seconds isolated, 40.1 in the shared
 * workers, cpu-of.sh, a loaded machine).
 */
const E2E_SHARED = [
  'test/e2e/adapters.test.ts',
  'test/e2e/paginate-hostile.test.ts',
  'test/e2e/sdk.test.ts',
  'test/e2e/sdk-example.test.ts',
  'test/e2e/server.test.ts',
  'test/e2e/server-examples.test.ts',
  'test/e2e/server-folded.test.ts',
  'test/e2e/server-hostile.test.ts',
  'test/e2e/ui-examples.test.ts',
];

export default defineConfig({
  test: {
    // One PostgreSQL and one MariaDB for the whole run, a database per file (each project runs the setup;
    // the projects share one coordinator, test/global-setup.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default is one worker per core less one; here a worker mostly waits on a child it spawned
    // (the built CLI, a server), so that left a core idle on a 2-core machine: one worker per core. Not more:
    // those children keep the core busy — test/cli's 17 files spent 188 CPU-seconds (the worker and its
    // children) for 140 s of file time on a quiet run, package-install 58 for 43 — so a third worker on two
    // cores only shares them.
    maxWorkers: availableParallelism(),
    // The JSON report lets .ci/run print a plain "N passed, N failed" line; the durations feed
    // test/durations.json (`npm run test:durations`).
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }], new DurationsReporter('.tmp/test-durations.json')],
    // Longest files first, a fresh clone too (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        // The library's own tests: each file in a fresh process paid ~2.5 s of worker start and module
        // loading (the parser's modules, chevrotain and its lodash-es) before its first test — more than
        // most files' tests take. These files import the library and leave no process-wide state behind,
        // so a worker runs file after file with the modules it already loaded.
        extends: true,
        test: {
          name: 'shared',
          include: [
            'test/unit/**/*.test.ts',
            'test/property/**/*.test.ts',
            'test/types/**/*.test.ts',
            'test/lsp/**/*.test.ts',
            'test/conformance/**/*.test.ts',
            // Commands run in process restore what they change (test/support/cli-in-process.ts); spawns leave nothing.
            'test/cli/**/*.test.ts',
            ...E2E_SHARED,
          ],
          exclude: PROCESS_WIDE,
          isolate: false,
        },
      },
      {
        // Files that start servers, browsers, engines and topologies or install the packed package (and the
        // PROCESS_WIDE ones): a fresh process each, so nothing one leaves running or changed reaches another.
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/e2e/**/*.test.ts', 'test/engines/**/*.test.ts', 'test/topology/**/*.test.ts', ...PROCESS_WIDE],
          exclude: E2E_SHARED,
          isolate: true,
        },
      },
    ],
  },
});
