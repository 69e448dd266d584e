// Approval on a real server, real git and real pytest: a task with `approval: required` waits after its commit;
// request-changes starts a new round on top of the proposed change whose coder is told the reviewer's words; the
// branch keeps every round's commit; a stale answer is refused; a reject fails the task with its own class.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { fixTurns, makeCalcProject, turn } from '../support/calc-project.js';
import { buildTrajectory } from '../../domain/trajectory/trajectory.js';
import { formatTrajectory } from '../../client/show/format-text.js';
import { approveUpdate, rejectUpdate, requestChangesUpdate } from '../../workflows/messages.js';
import {
  git,
  readEvents,
  startTestTask,
  taskloopCommits,
  taskOutcome,
  taskSpec,
  waitForState,
} from './support/tasks.js';
import { useTestTemporal } from './support/temporal.js';

const docstringTurns = () => [
  turn('replace_in_file', {
    path: 'calc.py',
    old: 'def add(a, b):\n',
    new: 'def add(a, b):\n    """The sum of a and b."""\n',
  }),
  turn('finish', { summary: 'documented add' }),
];

const awaitingRound = (round: number) => (state: { status: string; review?: { rounds: unknown[] } }) =>
  state.status === 'AWAITING_APPROVAL' && state.review?.rounds.length === round;

describe('approval: a person is the last judge', () => {
  const t = useTestTemporal('approval');

  it('request-changes → a round on top of the change whose coder was told the comment → approve → completed', async () => {
    const project = await makeCalcProject({ coder: [...fixTurns(), ...docstringTurns()] });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
      approval: 'required',
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    const first = await waitForState(handle, 'round 1 awaits approval', awaitingRound(1), 120_000);
    const round1 = first.review!.rounds[0]!;
    expect(round1.branch).toBe(`taskloop/${spec.id}`);

    await handle.executeUpdate(requestChangesUpdate, {
      args: [{ round: 1, comment: 'Please give add a docstring.', author: 'ana' }],
    });
    const second = await waitForState(handle, 'round 2 awaits approval', awaitingRound(2), 120_000);
    const round2 = second.review!.rounds[1]!;

    // The branch moved forward: round 2's commit sits on round 1's, nothing lost.
    expect(round2.branch).toBe(round1.branch);
    expect((await git(project.repo, 'rev-parse', `${round2.sha}^`)).trim()).toBe(round1.sha);
    expect((await git(project.repo, 'rev-parse', round1.branch)).trim()).toBe(round2.sha);
    expect(await taskloopCommits(project.repo, round1.branch)).toHaveLength(2);
    const calc = await git(project.repo, 'show', `${round2.sha}:calc.py`);
    expect(calc).toContain('return a + b');
    expect(calc).toContain('"""The sum of a and b."""');

    // What the model received in round 2: the reviewer's words, as theirs, and the change under review.
    const attempt2 = second.attempts[1]!;
    expect(attempt2.round).toBe(2);
    expect(attempt2.baseSha).toBe(round1.sha);
    const transcript = JSON.parse(await readFile(attempt2.coder?.transcript?.path ?? '', 'utf8')) as {
      role: string;
      content: string;
    }[];
    const opening = transcript.find((message) => message.role === 'user')?.content ?? '';
    expect(opening).toContain("# A reviewer's request for changes");
    expect(opening).toContain("The reviewer's words (ana):\n> Please give add a docstring.");
    expect(opening).toContain('-    return a - b\n+    return a + b');

    // A stale answer (round 1's) is refused, naming the round that waits.
    const stale = await handle.executeUpdate(approveUpdate, { args: [{ round: 1, author: 'bo' }] }).catch((e) => e);
    expect(stale).toBeInstanceOf(WorkflowUpdateFailedError);
    expect(((stale as Error).cause as Error | undefined)?.message).toMatch(
      /waits for approval of round 2 .*names round 1, an earlier round/,
    );

    await handle.executeUpdate(approveUpdate, { args: [{ round: 2, author: 'bo', comment: 'thanks' }] });
    const outcome = await taskOutcome(handle);
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.commit?.sha).toBe(round2.sha);
    const events = (await readEvents(t.host.eventsFile)).filter((event) => event.workflowId === handle.workflowId);
    expect(events.map((event) => event.type)).toEqual([
      'COMMIT_CREATED',
      'APPROVAL_REQUESTED',
      'CHANGES_REQUESTED',
      'COMMIT_CREATED',
      'APPROVAL_REQUESTED',
      'APPROVED',
      'TASK_COMPLETED',
    ]);
    expect(events.find((event) => event.type === 'CHANGES_REQUESTED')?.data).toMatchObject({
      round: 1,
      author: 'ana',
      comment: 'Please give add a docstring.',
    });
  }, 240_000);

  it('reject → FAILED rejected_by_reviewer, the branch kept', async () => {
    const project = await makeCalcProject({ coder: fixTurns() });
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
      approval: 'required',
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    const state = await waitForState(handle, 'round 1 awaits approval', awaitingRound(1), 120_000);
    await handle.executeUpdate(rejectUpdate, { args: [{ reason: 'not this way', author: 'ana' }] });
    const outcome = await taskOutcome(handle);
    expect(outcome.status).toBe('FAILED');
    expect(outcome.recommendation).toBe('rejected_by_reviewer');
    expect(outcome.reason).toContain('rejected by ana in review round 1: not this way');
    expect((await git(project.repo, 'rev-parse', `taskloop/${spec.id}`)).trim()).toBe(state.review!.rounds[0]!.sha);
    // `show`'s review rounds from the real record: the reject is the last word.
    const shown = formatTrajectory(buildTrajectory(outcome, new Map()));
    expect(shown).toMatch(/^review: rejected by ana at \S+Z \(round 1\): not this way$/m);
    expect(shown).toMatch(/^ {4}attempt 1: PASSED \(tests passed, review passed, judge passed\)$/m);
  }, 180_000);
});
