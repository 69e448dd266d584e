// The demo's batch with another coder model: a bundled local model gets the coder version made for small models and
// a step bound; any other model keeps each task's own settings.
import { describe, expect, it } from 'vitest';
import { LOCAL_MODEL_DEMO, loadDemoPlan } from '../../../../client/demo/demo-plan.js';

const base = { project: 'demo-x', repo: '/tmp/demo-repo' };

describe('the demo plan', () => {
  it('runs a local model with coder-small, 8 coder steps, and 3 candidates in one attempt on every task', async () => {
    const plan = await loadDemoPlan({ ...base, model: 'local:qwen2.5-coder-1.5b' });
    expect(plan.tasks).toHaveLength(5);
    for (const task of plan.tasks) {
      expect(task.spec.models.coder).toBe('local:qwen2.5-coder-1.5b');
      expect(task.spec.agents?.coder).toBe(LOCAL_MODEL_DEMO.coderVersion);
      expect(task.spec.maxCoderSteps).toBe(8);
      // At most three coder runs a task, as the recorded plan's two retries give: drawn apart, decided by the tests.
      expect(task.spec).toMatchObject({ samples: 3, maxRetries: 0 });
      expect(task.spec).toMatchObject({ project: 'demo-x', repo: '/tmp/demo-repo' });
    }
  });

  it('keeps the recorded scripts and the default coder version without --model, and an API model as given', async () => {
    const scripted = await loadDemoPlan(base);
    expect(scripted.tasks.map((task) => task.spec.models.coder)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^scripted:/)]),
    );
    const api = await loadDemoPlan({ ...base, model: 'openai:gpt-4.1-mini' });
    for (const plan of [scripted, api])
      for (const task of plan.tasks) {
        expect(task.spec.agents?.coder).toBeUndefined();
        expect(task.spec.maxCoderSteps).toBe(30);
        expect(task.spec.samples).toBeUndefined();
        expect(task.spec.maxRetries).toBe(2);
      }
  });

  it('refuses a model that names no provider, saying the forms it takes', async () => {
    await expect(loadDemoPlan({ ...base, model: 'qwen' })).rejects.toThrow(
      /^taskloop demo: --model must look like .*local:.*, got "qwen"$/,
    );
  });
});
