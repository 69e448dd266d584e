// What the claim read of the project's learning for the coder passes through the workflow: the skills that match the
// goal come back in the claim's result and go into the coder's input (the coder reads them itself only without).
import { describe, expect, it } from 'vitest';
import { useStubServer, type StubRun } from './support/environment.js';
import { asDefault, testsFailedWith, type StubScript } from './support/stubs.js';
import { outcomeOf, startStubTask, stubSpec } from './support/tasks.js';

const server = useStubServer();

const skill = {
  id: 'a1b2c3d4e5f6',
  whenItApplies: 'make test_sub pass when it subtracts the wrong way',
  whatToDo: 'Swap the operands of the subtraction.',
  hosts: ['host-a'],
};

describe("the project's skills for the coder", () => {
  it("go from the claim's result into each attempt's coder input, through the workflow", async () => {
    let current: StubRun | undefined;
    const script: StubScript = {
      claim: async (input, call) => ({
        ...(await current!.stubs.runDefault('claim', input)),
        // The second attempt's claim read none (its read failed): its coder reads them itself.
        ...(call === 1 ? { skills: [skill] } : { historyError: 'the learning query timed out' }),
      }),
      test: [testsFailedWith({ kind: 'TestsFailed', message: 'tests failed: test_sub' }), asDefault],
    };
    await server.withStubs(script, async (run) => {
      current = run;
      const spec = stubSpec(run);
      const outcome = await outcomeOf(await startStubTask(run, spec));
      expect(outcome.status).toBe('COMPLETED');
      expect(run.stubs.calls.claim.map((claim) => claim.goal)).toEqual([spec.goal, spec.goal]);
      expect(run.stubs.calls.code.map((coder) => coder.skills)).toEqual([[skill], undefined]);
    });
  });
});
