// Marks the CLI entry executable after tsc emits it (tsc does not keep modes).
import { chmodSync, existsSync } from 'node:fs';
const cli = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(cli)) chmodSync(cli, 0o755);
