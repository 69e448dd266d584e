// Approval as a judge a person plays: a task with `approval: required` waits after its commit for a validated answer.
// Timers pass in no real time here, so the 7-day timeout is waited out for real.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { approveUpdate, rejectUpdate, requestChangesUpdate } from '../../workflows/messages.js';
import { useStubServer } from './support/environment.js';
import { outcomeOf, startStubTask, stubSpec, waitForState } from './support/tasks.js';

const awaiting = (round: number) => (state: { status: string; review?: { rounds: unknown[] } }) =>
  state.status === 'AWAITING_APPROVAL' && state.review?.rounds.length === round;

/** The message of the failure an Update was refused with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

describe('a task that waits for approval', () => {
  const server = useStubServer();

  it('ends FAILED approval_timed_out after 7 days without an answer, the branch kept', async () => {
    await server.withStubs({}, async (run) => {
      const handle = await startStubTask(run, stubSpec(run, { approval: 'required' }));
      const waiting = await waitForState(handle, 'awaiting approval', awaiting(1));
      expect(
        Date.parse(waiting.review!.rounds[0]!.timeoutAt) - Date.parse(waiting.review!.rounds[0]!.waitingSince),
      ).toBe(7 * 86_400_000);
      const outcome = await outcomeOf(handle);
      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('approval_timed_out');
      expect(outcome.reason).toMatch(/no answer to review round 1 within approvalTimeout \(7 day\(s\)\)/);
      expect(outcome.reason).toContain(`branch taskloop/`);
      expect(outcome.commit?.sha).toBe('c'.repeat(40));
      expect(run.stubs.calls.events.map((event) => event.type)).toContain('APPROVAL_TIMED_OUT');
    });
  });

  it('takes request-changes as a new round from the proposed change, then an approve completes it', async () => {
    await server.withStubs({}, async (run) => {
      const handle = await startStubTask(run, stubSpec(run, { approval: 'required' }));
      await waitForState(handle, 'awaiting approval', awaiting(1));
      const accepted = await handle.executeUpdate(requestChangesUpdate, {
        args: [{ round: 1, comment: 'add a docstring', author: 'ana' }],
      });
      expect(accepted).toEqual({ round: 1, kind: 'request-changes' });
      await waitForState(handle, 'round 2 awaits approval', awaiting(2));
      // The second attempt starts from the change under review, and its coder is told the reviewer's words.
      expect(run.stubs.calls.claim.map((input) => input.baseRef)).toEqual(['HEAD', 'c'.repeat(40)]);
      expect(run.stubs.calls.code[1]?.reviewRequest).toMatchObject({
        round: 2,
        comment: 'add a docstring',
        author: 'ana',
        sha: 'c'.repeat(40),
        baseSha: 'b'.repeat(40),
      });
      expect(run.stubs.calls.commit[1]?.advanceFrom).toBe('c'.repeat(40));
      expect(await refusal(handle.executeUpdate(approveUpdate, { args: [{ round: 1, author: 'ana' }] }))).toMatch(
        /waits for approval of round 2 .* names round 1, an earlier round/,
      );
      await handle.executeUpdate(approveUpdate, { args: [{ round: 2, author: 'bo', comment: 'thanks' }] });
      const outcome = await outcomeOf(handle);
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.review?.rounds.map((round) => [round.round, round.answer?.kind, round.answer?.author])).toEqual([
        [1, 'request-changes', 'ana'],
        [2, 'approve', 'bo'],
      ]);
      expect(outcome.attempts.map((attempt) => attempt.round)).toEqual([undefined, 2]);
      const types = run.stubs.calls.events.map((event) => event.type);
      expect(types.filter((type) => type.startsWith('APPROV') || type === 'CHANGES_REQUESTED')).toEqual([
        'APPROVAL_REQUESTED',
        'CHANGES_REQUESTED',
        'APPROVAL_REQUESTED',
        'APPROVED',
      ]);
    });
  });

  it('refuses an answer while the task runs, and a reject ends it rejected_by_reviewer', async () => {
    await server.withStubs({}, async (run) => {
      const handle = await startStubTask(run, stubSpec(run, { approval: 'required' }));
      const early = await refusal(handle.executeUpdate(approveUpdate, { args: [{}] }));
      expect(early).toMatch(/is (RUNNING|PAUSE_REQUESTED) .*not AWAITING_APPROVAL: approve is accepted only while/);
      await waitForState(handle, 'awaiting approval', awaiting(1));
      expect(await refusal(handle.executeUpdate(rejectUpdate, { args: [{}] }))).toMatch(/needs a reason/);
      await handle.executeUpdate(rejectUpdate, { args: [{ reason: 'wrong approach', author: 'ana' }] });
      const outcome = await outcomeOf(handle);
      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('rejected_by_reviewer');
      expect(outcome.reason).toMatch(/rejected by ana in review round 1: wrong approach; the change stays on branch/);
    });
  });

  it('a task without approval completes at its commit, as before', async () => {
    await server.withStubs({}, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run));
      expect(outcome.status).toBe('COMPLETED');
      expect(outcome.review).toBeUndefined();
    });
  });
});
