// What the Web UI reads of a task (its workflow's current details, asked through the metadata query, and the failure
// a FAILED task ends with): the first line carries the taskloop status, phase and attempt, true for that attempt.
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { pauseSignal } from '../../workflows/messages.js';
import { useStubServer, type StubRun } from './support/environment.js';
import { asDefault, judgeModelRejects, testsFailedWith, type StubScript } from './support/stubs.js';
import { startStubTask, stubSpec, waitForState } from './support/tasks.js';

/** The current details as the Web UI gets them: the SDK's built-in metadata query. */
async function currentDetails(handle: WorkflowHandle): Promise<string> {
  const metadata = await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

const firstLine = (text: string) => text.split('\n')[0];

describe('the Web UI at a glance', () => {
  const server = useStubServer();

  it('a task paused between attempts says PAUSED and that the next attempt has not started', async () => {
    let current: StubRun | undefined;
    const testsFail = testsFailedWith({ kind: 'TestsFailed', message: 'tests failed: test_sub expected 1 got 2' });
    const script: StubScript = {
      test: [
        async () => {
          // Paused while attempt 1's tests run: the task holds before attempt 2's first node.
          await current!.client.workflow.getHandle(workflowId).signal(pauseSignal);
          return testsFail;
        },
        asDefault,
      ],
    };
    let workflowId = '';
    await server.withStubs(script, async (run) => {
      current = run;
      const spec = stubSpec(run);
      workflowId = `task-${spec.project}-${spec.id}`;
      const handle = await startStubTask(run, spec);
      await waitForState(handle, 'paused', (state) => state.status === 'PAUSED');
      const details = await currentDetails(handle);
      expect(firstLine(details)).toBe('**PAUSED**: attempt 2 not started yet (attempt 1 ended in `test`)');
      expect(details).toContain('**Last failure** (test, code_defect): tests failed: test_sub expected 1 got 2');
      // The last line names the command that shows what the model did, for this very task.
      expect(details.split('\n').at(-1)).toBe(
        `**Trajectory**: \`taskloop show ${workflowId}\` (turns, tool calls, diffs, verdicts), or \`taskloop show ${workflowId} --html trajectory.html\` for a page`,
      );
      await handle.cancel();
      await handle.result().catch(() => undefined);
    });
  });

  it('a task waiting for a hint says WAITING_FOR_HINT with the phase and attempt it waits in', async () => {
    const ambiguous = {
      rule: 'model_judge',
      message: `the goal is ambiguous: ${'round half up or even? '.repeat(30)}`,
    };
    const script: StubScript = {
      judge: [judgeModelRejects([ambiguous])],
    };
    await server.withStubs(script, async (run) => {
      const spec = stubSpec(run, {
        models: { coder: 'scripted:coder.json', judge: 'scripted:judge.json' },
        agents: { coder: 'coder-small-text' },
        agentsChosenBy: { coder: 'default for local models' },
      });
      const handle = await startStubTask(run, spec);
      await waitForState(handle, 'waiting for a hint', (state) => state.status === 'WAITING_FOR_HINT');
      const details = await currentDetails(handle);
      expect(firstLine(details)).toBe('**WAITING_FOR_HINT**: phase `judge`, attempt 1');
      // Which coder version runs, and why (domain/agent-choice.ts).
      expect(details).toContain('**Coder**: coder-small-text (default for local models)');
      // The reason is cut at a word, short.
      const failure = details.split('\n').find((line) => line.startsWith('**Last failure**')) ?? '';
      expect(failure.length).toBeLessThan(400);
      expect(failure.endsWith('…')).toBe(true);
      await handle.terminate('seen');
    });
  });

  it("a FAILED task's failure message is short and first; the whole reason and the attempts follow it", async () => {
    const long = `tests failed: ${'assert add(2, 3) == 5 '.repeat(40)}`;
    const script: StubScript = { test: testsFailedWith({ kind: 'TestsFailed', message: long }) };
    await server.withStubs(script, async (run) => {
      const handle = await startStubTask(run, stubSpec(run, { maxRetries: 0 }));
      const error = await handle.result().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      const cause = (error as WorkflowFailedError).cause as Error;
      expect(cause.message.length).toBeLessThanOrEqual(161);
      expect(cause.message).toMatch(/^Code defect at test: .*tests failed: assert add/);
      expect(cause.message).not.toContain('\n');
      expect(cause.stack).toContain(long.trim());
      expect(cause.stack).toMatch(/attempt 1: FAILED at test \(code_defect\)/);
      expect(cause.stack).not.toMatch(/\bat \w+ \(.*\.js:\d+/);
    });
  });
});
