/**
 * vitest's global setup (vitest.config.ts `globalSetup`), run once in the
 * main process before any test file: starts the shared-server coordinator
 * (test/support/server-coordinator.ts) and passes its address to the test
 * files through `provide`. No database server starts until a file asks for
 * one, so a run of files that need none pays nothing; the teardown stops
 * whatever was started.
 */
import type { TestProject } from 'vitest/node';
import { startServerCoordinator } from './support/server-coordinator.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const coordinator = await startServerCoordinator();
  project.provide('wepqlTestServers', coordinator.address);
  return () => coordinator.close();
}
