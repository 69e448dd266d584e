import { defineConfig } from 'vitest/config';
import { useRunTmpdir } from './test/support/run-tmpdir.js';

useRunTmpdir();

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
