import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { DurationsReporter, LongestFirstSequencer } from './test/support/sequencer.js';

/**
 * Files of the shared-module project that change something process-wide a
 * later file in the same worker would see: a module mock (complete-deep), a
 * time zone (grid-mui). They run isolated, each in a process of its own.
 */
const PROCESS_WIDE = ['test/unit/language-service/complete-deep.test.ts', 'test/property/grid-mui.test.ts'];

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
        // Every file but the PROCESS_WIDE ones: each in a fresh process paid ~2.5 s of worker start and module
        // loading (the parser's modules, chevrotain and its lodash-es, the drivers) before its first test — more
        // than most files' tests take. A worker runs file after file with the modules it already loaded. That
        // holds for the files that start servers, browsers, topologies and installs too: each closes in its own
        // hooks what it starts (an HTTP server on port 0, a child process, a database, a browser context, a
        // temporary folder) and changes nothing process-wide. Measured on the 21 end-to-end, engine and
        // topology files that had a fresh process each: 324.5 CPU-seconds that way, 290.1 here (cpu-of.sh, the
        // same loaded machine, one run each; vitest's "import" time 146 s to 54 s).
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: PROCESS_WIDE,
          isolate: false,
        },
      },
      {
        // The PROCESS_WIDE files: a fresh process each, so what they change reaches no other file.
        extends: true,
        test: {
          name: 'isolated',
          include: PROCESS_WIDE,
          isolate: true,
        },
      },
    ],
  },
});
