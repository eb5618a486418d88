// Preloaded (`node --require`) into every process the start-up benchmark
// runs, the `node -e 0` reference included: at exit it writes the process's
// own CPU time and peak memory to the file named by WEPQL_BENCH_CPU_FILE.
// Node does not report a child's resource use to its parent, and
// process.cpuUsage() counts from the process's start, bootstrap included.
'use strict';
const { writeFileSync } = require('node:fs');
const file = process.env.WEPQL_BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ cpuMs: (user + system) / 1000, maxRssKiB: process.resourceUsage().maxRSS }));
  });
}
