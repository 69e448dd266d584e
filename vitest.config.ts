import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/slow-first-sequencer.js';
import { isolateRun } from './test/support/run-isolation.js';
import { useRunTmpdir } from './test/support/run-tmpdir.js';
import { unitFilesThatMockModules } from './test/support/unit-isolation.js';

// Temporaries, TASKLOOP_HOME and the default Temporal address of the run's own: nothing a test starts reaches the
// checkout's .taskloop/ or a server the user (or `npm run demo`) left on 127.0.0.1:7233.
await isolateRun(useRunTmpdir());

// Three tiers: `unit` needs no server (its files that mock a module run apart, in `unit-mocks`); `workflows` runs
// the workflows on stub activities on the time-skipping test server (one per file); `integration` shares one real
// Temporal dev server per run.
export default defineConfig({
  test: {
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...unitFilesThatMockModules],
          pool: 'forks',
          // The files of a fork share one module registry: each file no longer imports the SDK and the code under
          // test afresh. Back to back on a quiet machine here: the tier took 87 s isolated (33 s of it importing), 51 s
          // without (7 s).
          // A file must leave the process as it found it (environment variables restored).
          isolate: false,
          // Vitest's default is one fork fewer than the cores: one on 2 cores, where these files mostly wait on git,
          // pytest and bubblewrap.
          maxWorkers: 2,
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          // vi.mock replaces a module in the file's own registry: such a file needs one of its own.
          name: 'unit-mocks',
          include: [...unitFilesThatMockModules],
          pool: 'forks',
          // The same as `unit`: projects run together must agree on it.
          maxWorkers: 2,
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
          // Its files mostly wait (on Temporal's timeouts, restarted workers, pytest): four forks on 2 cores took the
          // tier from 642 s (two forks, the longest files last) to 288 s with the longest first, with no failure.
          maxWorkers: 4,
          sequence: { groupOrder: 2 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
