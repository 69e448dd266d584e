import { defineConfig } from 'vitest/config';
import { useRunTmpdir } from './test/support/run-tmpdir.js';

useRunTmpdir();

// Three projects: `unit` needs no server; `workflows` runs the workflows on stub activities on the time-skipping
// test server (one per file); `integration` shares one real Temporal dev server per run.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          pool: 'forks',
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'workflows',
          include: ['test/workflows/**/*.test.ts'],
          globalSetup: ['test/workflows/global-setup.ts'],
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          pool: 'forks',
          // Two cores: more forks than that only makes workflow tests slower and flakier.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
