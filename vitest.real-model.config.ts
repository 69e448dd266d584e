import { defineConfig } from 'vitest/config';
import { isolateRun } from './test/support/run-isolation.js';
import { useRunTmpdir } from './test/support/run-tmpdir.js';

// As the other tiers: the run's own temporaries, TASKLOOP_HOME and default Temporal address, so nothing here reaches
// the checkout's .taskloop/ or a server the user (or `npm run demo`) left on 127.0.0.1:7233. The local model's cache
// (XDG_CACHE_HOME) stays the machine's: the tier needs the installed model.
await isolateRun(useRunTmpdir());

// The real-model tier (`npm run test:real-model`, not part of `npm test`): the loop through a real llama-server
// serving the bundled Qwen2.5-Coder-0.5B-Instruct (test/real-model/tier-model.ts). One file at a time, one fork: the model takes both cores while it answers.
export default defineConfig({
  test: {
    name: 'real-model',
    include: ['test/real-model/**/*.test.ts'],
    globalSetup: ['test/real-model/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 480_000,
    hookTimeout: 120_000,
  },
});
