#!/usr/bin/env node
/**
 * `npm run topology -- <pgbouncer|replica|shards>`: starts one topology of
 * local clusters (clusters.mjs), prints how to reach it, and stops and
 * deletes everything on Ctrl-C. For trying the data sources by hand; the
 * suite starts the same topologies itself (test/topology/).
 */
import { startCluster, startPgbouncer, startPrimaryWithStandby, topologyUnavailable } from './clusters.mjs';

const NAMES = ['pgbouncer', 'replica', 'shards'];
const name = process.argv[2];
if (!NAMES.includes(name)) {
  process.stderr.write(`usage: npm run topology -- <${NAMES.join('|')}>\n`);
  process.exit(2);
}
const unavailable = topologyUnavailable(name);
if (unavailable !== undefined) {
  process.stderr.write(`topology ${name}: ${unavailable}\n`);
  process.exit(1);
}

const stops = [];
const lines = [];
if (name === 'pgbouncer') {
  const cluster = await startCluster('server');
  stops.push(cluster.stop);
  const bouncer = await startPgbouncer(cluster, { poolSize: 4 });
  stops.push(bouncer.stop);
  lines.push(`PostgreSQL:                  ${cluster.url}`, `pgbouncer (transaction mode): ${bouncer.url('postgres')}`);
} else if (name === 'replica') {
  const pair = await startPrimaryWithStandby();
  stops.push(pair.stop);
  lines.push(`primary:     ${pair.primary.url}`, `hot standby: ${pair.standby.url} (streaming from the primary)`);
} else {
  const coordinator = await startCluster('coordinator');
  stops.push(coordinator.stop);
  for (const i of [0, 1]) {
    const shard = await startCluster(`shard${i}`);
    stops.push(shard.stop);
    lines.push(`shard ${i}:     ${shard.url}`);
  }
  lines.unshift(`coordinator: ${coordinator.url} (create the table with createPostgresTable's shards; docs/server.md)`);
}
const stopAll = () => {
  for (const stop of stops.reverse()) stop();
  process.exit(0);
};
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
process.stdout.write(`topology ${name} is up:\n${lines.map((l) => `  ${l}`).join('\n')}\nCtrl-C stops it and deletes its data.\n`);
setInterval(() => {}, 1 << 30);
