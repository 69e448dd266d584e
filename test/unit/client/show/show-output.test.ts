// `taskloop show`'s text and page, rendered from a completed and a failed task as test/integration/show.test.ts
// recorded them (outcome, transcript and diff: test/fixtures/trajectories/), and from made-up records where a case
// needs one (a reply holding HTML, an artifact on another host, a secret in a tool reply).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../../../domain/eval/report.js';
import type { TaskOutcome } from '../../../../domain/task-state.js';
import {
  buildTrajectory,
  type AttemptArtifacts,
  type TaskTrajectory,
} from '../../../../domain/trajectory/trajectory.js';
import { projectRoot } from '../../../../platform/paths.js';
import { formatTrajectory } from '../../../../client/show/format-text.js';
import { readAttemptArtifacts, scrubbed } from '../../../../client/show/load-trajectory.js';
import { readArtifactText } from '../../../../client/show/read-artifact.js';
import { anchorOf, renderEvalPage, renderTaskPage } from '../../../../client/show/render-html.js';
import { makeTempDir } from '../../../support/git-repo.js';

const fixtures = path.join(projectRoot, 'test', 'fixtures', 'trajectories');

/** A recorded task with its artifacts as `taskloop show` reads them on the worker's host. */
async function recorded(name: 'completed' | 'failed'): Promise<{ outcome: TaskOutcome; trajectory: TaskTrajectory }> {
  const dir = path.join(fixtures, name);
  const outcome = JSON.parse(await readFile(path.join(dir, 'outcome.json'), 'utf8')) as TaskOutcome;
  const artifacts = new Map<string, AttemptArtifacts>([
    [
      '1',
      {
        transcript: { text: await readFile(path.join(dir, 'a1-transcript.json'), 'utf8') },
        diff: { text: await readFile(path.join(dir, 'a1-diff.patch'), 'utf8') },
      },
    ],
  ]);
  return { outcome, trajectory: buildTrajectory(outcome, artifacts) };
}

/** An outcome whose one attempt's transcript lives at `transcriptPath` on host `hostId`. */
function outcomeWithTranscript(transcriptPath: string, hostId = 'h1'): TaskOutcome {
  return {
    workflowId: 'task-p-t1',
    taskId: 't1',
    project: 'p',
    status: 'FAILED',
    attempts: [
      {
        attempt: 1,
        status: 'FAILED',
        startedAt: '2026-12-06T12:00:00.000Z',
        endedAt: '2026-12-06T12:00:02.500Z',
        envRetries: 0,
        coder: {
          status: 'model_error',
          summary: '',
          changedFiles: [],
          turnsConsumed: 1,
          telemetry: {
            patchAttempts: 0,
            patchSuccesses: 0,
            patchMismatches: 0,
            writeFileOperations: 0,
            writeFileFallbacks: 0,
            mutationOperations: 0,
            modelRequests: 1,
            inputTokens: 10,
            outputTokens: 5,
          },
          transcript: { hostId, path: transcriptPath, bytes: 1 },
        },
      },
    ],
    telemetry: {} as TaskOutcome['telemetry'],
    turnsConsumed: 1,
  };
}

const transcriptWithReply = (reply: string) =>
  JSON.stringify([
    { role: 'user', content: 'Fix it' },
    { role: 'assistant', content: 'look', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'x.py' } }] },
    { role: 'tool', toolCallId: 'c1', name: 'read_file', content: reply },
  ]);

describe('taskloop show as text', () => {
  it('prints a completed task: each turn with its tool call and reply, the in-attempt test runs, the diff, the verdicts, tokens and time', async () => {
    const { outcome, trajectory } = await recorded('completed');
    const text = formatTrajectory(trajectory);
    expect(text.split('\n')[0]).toBe(
      `${outcome.workflowId}: COMPLETED after 1 attempt (project show, task ${outcome.taskId})`,
    );
    expect(text).toMatch(
      /^== attempt 1: PASSED, on test-taskloop-work-\w+, \d+\.\d s, tokens 6686 in \/ 238 out \(7 model requests\)$/m,
    );
    expect(text).toContain(
      'turn 3: add subtracts; swapping the operands should do.\n  -> replace_in_file {"path":"calc.py","old":"    return a - b","new":"    return b - a"}\n     | replaced 1 occurrence in calc.py at line 2',
    );
    expect(text).toContain(
      'in-attempt test runs: 2\n  turn 4: run_tests {}: tests failed: 2 total, 1 passed, 1 failed',
    );
    expect(text).toContain('diff (1 file, +1 -1):\n  diff --git a/calc.py b/calc.py');
    expect(text).toContain('  -    return a - b\n  +    return a + b');
    expect(text).toMatch(/^tests: passed, 2\/2 passed, 0 failed, 0 errors \(exit 0, /m);
    expect(text).toContain('review: passed\njudge: passed\n  evidence: tests: 2 passed');
    expect(text).not.toContain('failure:');
  });

  it('prints a failed task: the diff the test node stored, the failing output, verdicts not reached, the node, class and cause', async () => {
    const { trajectory } = await recorded('failed');
    const text = formatTrajectory(trajectory);
    expect(text).toContain('FAILED after 1 attempt');
    expect(text).toContain('recommendation: code_defect');
    expect(text).toContain('  -    return a - b\n  +    return a * b');
    expect(text).toMatch(/^tests: failed, 1\/2 passed, 1 failed/m);
    expect(text).toContain('  | E       assert 6 == 5');
    expect(text).toContain('review: not reached\njudge: not reached');
    expect(text).toContain(
      'failure: at test, class code_defect, cause TestsFailed: 1 of 2 tests failed (first: FAILED tests/test_calc.py::test_add)',
    );
  });
});

describe('taskloop show of a running task', () => {
  it('shows the turns so far of an attempt whose coder still runs, from the transcript its heartbeat names', () => {
    const running = {
      workflowId: 'task-p-t1',
      taskId: 't1',
      project: 'p',
      status: 'RUNNING' as const,
      goal: 'Fix add\nin calc.py',
      phase: 'code' as const,
      attempts: [{ attempt: 1, status: 'RUNNING' as const, startedAt: '2026-12-06T12:00:00.000Z', envRetries: 0 }],
    };
    const artifacts = new Map([['1', { transcript: { text: transcriptWithReply('x = 1') } }]]);
    const text = formatTrajectory(buildTrajectory(running, artifacts));
    expect(text).toContain('task-p-t1: RUNNING after 1 attempt (project p, task t1)\ngoal: Fix add\n');
    expect(text).toContain('turn 1: look\n  -> read_file {"path":"x.py"}\n     | x = 1');
    expect(text).toContain('diff: no diff yet: the coder has not finished');
    expect(text).toContain('tests: not yet (the attempt is at code)\nreview: not reached\njudge: not reached');
    expect(formatTrajectory(buildTrajectory(running, new Map()))).toContain(
      'turns: no transcript recorded (the coder did not finish a turn)',
    );
  });
});

describe('taskloop show as a page', () => {
  it("shows a task's tool calls, diff and verdicts, every text escaped: a reply holding HTML stays text", async () => {
    const { trajectory } = await recorded('completed');
    const attempt = trajectory.attempts[0];
    if (!attempt || 'missing' in attempt.transcript) throw new Error('the fixture has turns');
    const call = attempt.transcript.turns[0]?.calls[0];
    if (call) call.reply = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const html = renderTaskPage(trajectory);
    expect(html).toContain('tool call <b>read_file</b> <code>{&quot;path&quot;:&quot;NOTES.md&quot;}</code>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(html).not.toMatch(/<script|<img src=x/);
    expect(html).toContain('<span class="add">+    return a + b</span>');
    expect(html).toContain('<span class="del">-    return a - b</span>');
    expect(html).toContain('<li>review: <span class="pass">passed</span>');
    expect(html).toContain('<h3>in-attempt test runs: 2</h3>');
    // Nothing is fetched: the page is one file.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("shows an eval's picture and a row per instance, each linking to its trajectory's section; one that could not be read says why", async () => {
    const { outcome, trajectory } = await recorded('completed');
    const failedRun = { workflowId: 'task-eval-x-gone', reason: 'not read: no task with id task-eval-x-gone' };
    const run = (instanceId: string, workflowId: string, resolved: boolean) => ({
      instanceId,
      workflowId,
      taskStatus: resolved ? ('COMPLETED' as const) : ('FAILED' as const),
      attempts: 1,
      verification: { resolved } as EvalReport['runs'][string][number]['verification'],
      modelCalls: 7,
      inputTokens: 100,
      outputTokens: 20,
      costUsd: 0,
      wallTimeMs: 5100,
      malformedReplies: 0,
      ...(resolved ? {} : { failureClass: 'code_defect' }),
    });
    const report = {
      evalId: 'tiny-1234abcd',
      suite: 'tiny',
      arms: [{ arm: { id: 'a1', label: 'oracle learning=off' }, instances: 2, resolved: 1 }],
      comparisons: [],
      runs: { a1: [run('fix-add', outcome.workflowId, true), run('fix-shout', failedRun.workflowId, false)] },
      seed: 1,
    } as unknown as EvalReport;
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>resolved</text></svg>';
    const html = renderEvalPage({
      report,
      svg,
      trajectories: new Map<string, TaskTrajectory | { missing: string }>([
        [outcome.workflowId, trajectory],
        [failedRun.workflowId, { missing: failedRun.reason }],
      ]),
    });
    const image = /<img alt="resolved rate per arm and attempt" src="data:image\/svg\+xml;base64,([^"]+)">/.exec(html);
    expect(Buffer.from(image?.[1] ?? '', 'base64').toString()).toBe(svg);
    expect(html).toContain(`<td><a href="#${anchorOf(outcome.workflowId)}">fix-add</a></td><td class="pass">yes</td>`);
    expect(html).toContain(
      `<td><a href="#${anchorOf(failedRun.workflowId)}">fix-shout</a></td><td class="fail">no</td>`,
    );
    expect(html).toContain(
      `<section class="trajectory" id="${anchorOf(outcome.workflowId)}"><p><a href="#">back to the table</a></p>`,
    );
    expect(html).toContain(`<p class="missing">${failedRun.reason}</p>`);
    expect(html).toContain('.trajectory { display: none;');
    expect(html).toContain('.trajectory:target { display: block; }');
  });
});

describe('reading the artifacts where they are', () => {
  it("scrubs a secret that this process holds from a tool reply, even one the worker did not know (another host's environment)", async () => {
    const secret = 'sup3r-secret-value-91c2';
    const dir = path.join(await makeTempDir(), 'artifacts', 'task-p-t1', 'a1');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'transcript.json');
    await writeFile(file, transcriptWithReply(`token = "${secret}"`));
    const env = { DEPLOY_API_TOKEN: secret };
    const outcome = { ...outcomeWithTranscript(file), reason: `tests printed ${secret}` };
    const trajectory = scrubbed(buildTrajectory(outcome, await readAttemptArtifacts(outcome.attempts, env)), env);
    const text = formatTrajectory(trajectory);
    expect(text).toContain('     | token = "[redacted]"');
    expect(text).toContain('reason: tests printed [redacted]');
    expect(text + renderTaskPage(trajectory)).not.toContain(secret);
  });

  it('shows each candidate an attempt set aside as a block of its own, with its own transcript, before the kept one', async () => {
    const root = path.join(await makeTempDir(), 'artifacts', 'task-p-t1');
    const write = async (folder: string, reply: string) => {
      await mkdir(path.join(root, folder), { recursive: true });
      const file = path.join(root, folder, 'transcript.json');
      await writeFile(file, transcriptWithReply(reply));
      return file;
    };
    const [lost, kept] = [await write('a1', 'first draw'), await write('a1c2', 'second draw')];
    const base = outcomeWithTranscript(kept);
    const attempt = base.attempts[0]!;
    const outcome: TaskOutcome = {
      ...base,
      attempts: [
        {
          ...attempt,
          candidate: 2,
          candidates: [
            {
              candidate: 1,
              startedAt: '2026-12-06T11:59:00.000Z',
              endedAt: '2026-12-06T12:00:00.000Z',
              coder: { ...attempt.coder!, transcript: { hostId: 'h1', path: lost, bytes: 1 } },
              test: {
                outcome: 'failed',
                counts: { total: 3, passed: 2, failed: 1, errors: 0, skipped: 0 },
                exitCode: 1,
                durationMs: 1200,
              },
              failure: { node: 'test', failureClass: 'code_defect', reason: 'tests failed: 1 failed' },
            },
          ],
        },
      ],
    };
    const text = formatTrajectory(buildTrajectory(outcome, await readAttemptArtifacts(outcome.attempts, {})));
    const blocks = text.split('\n== ').slice(1);
    expect(blocks.map((block) => block.split('\n')[0]?.split(',').slice(0, 2).join(','))).toEqual([
      'attempt 1, candidate 1: SET_ASIDE',
      'attempt 1, candidate 2: FAILED',
    ]);
    expect(blocks[0]).toContain('| first draw');
    expect(blocks[0]).toContain('tests: failed, 2/3 passed, 1 failed, 0 errors (exit 1, 1.2 s)');
    expect(blocks[1]).toContain('| second draw');
  });

  it('names the host and the path of a transcript that is not on this machine, and says where to look', async () => {
    const elsewhere = '/srv/other-host/work/artifacts/task-p-t1/a1/transcript.json';
    const outcome = outcomeWithTranscript(elsewhere, 'gpu-box-2');
    const text = formatTrajectory(buildTrajectory(outcome, await readAttemptArtifacts(outcome.attempts, {})));
    expect(text).toContain(
      `turns: not on this machine (host gpu-box-2, ${elsewhere}): run taskloop show on host gpu-box-2, where its worker keeps its artifacts, or it was removed by taskloop clean`,
    );
    expect(text).toMatch(/^== attempt 1: FAILED, 2\.5 s, tokens 10 in \/ 5 out \(1 model requests\)$/m);
  });

  it('reads only transcripts and diffs in an artifacts folder, whatever path a record names', async () => {
    expect(await readArtifactText({ hostId: 'h', path: '/etc/passwd', bytes: 1 }, {})).toEqual({
      missing: 'not read: host h, /etc/passwd is not a transcript or diff in an artifacts folder',
    });
    expect(await readArtifactText({ hostId: 'h', path: 'artifacts/a1/transcript.json', bytes: 1 }, {})).toMatchObject({
      missing: expect.stringContaining('is not a transcript or diff in an artifacts folder'),
    });
  });
});
