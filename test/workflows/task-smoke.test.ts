import { describe, expect, it } from 'vitest';
import { useTestServer, withStubs } from './support/environment.js';
import { outcomeOf, startStubTask } from './support/tasks.js';

describe('smoke', () => {
  const env = useTestServer();
  it('passes', async () => {
    await withStubs(env(), {}, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run));
      expect(outcome.status).toBe('COMPLETED');
    });
  });
});
