import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL and one MariaDB for the whole run, a database per file.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default is one worker per core less one; here a worker mostly waits on a child it spawned
    // (the built CLI, a server), so that left a core idle on a 2-core machine: one worker per core.
    maxWorkers: availableParallelism(),
    // The JSON report lets .ci/run print a plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
  },
});
