import { defineConfig } from 'vitest/config';
import { useRunTmpdir } from './test/support/run-tmpdir.js';

useRunTmpdir();

// The cluster tier (`npm run test:cluster`, not part of `npm test`): the integration global setup starts the
// self-hosted stack (platform/cluster: Temporal built from Go modules, PostgreSQL, SQL visibility) instead of the dev
// server, and a chosen set of scenarios runs on it unchanged, besides three worker processes as three hosts.
process.env.TASKLOOP_TEST_SERVER = 'cluster';

/** The integration files that exercise what a cluster changes: retries, learning, evals, codecs, visibility. */
export const clusterScenarioFiles = [
  'test/cluster/**/*.test.ts',
  'test/integration/learning.test.ts',
  'test/integration/eval.test.ts',
  'test/integration/encrypted-payloads.test.ts',
  'test/integration/cli-project.test.ts',
];

export default defineConfig({
  test: {
    name: 'cluster',
    include: clusterScenarioFiles,
    globalSetup: ['test/integration/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 300_000,
    hookTimeout: 180_000,
  },
});
