// `taskloop show` holds every message the model got (issue 69, E6): the system prompt and the task as sent — the
// goal, the files shown, a retry's evidence — whole, in the text, on the page (collapsed) and in --json; the page
// has the `next:` line; a running attempt says what it does now, not "no diff yet" or "tests: not run".
import { describe, expect, it } from 'vitest';
import { formatTrajectory } from '../../../../client/show/format-text.js';
import { renderTaskPage } from '../../../../client/show/render-html.js';
import type { AttemptRecord } from '../../../../domain/task-state.js';
import { buildTrajectory } from '../../../../domain/trajectory/trajectory.js';

const evidence = `# Previous attempts (they did not succeed)\nattempt 1: tests failed\n${'E   assert 6 == 5\n'.repeat(120)}`;
const opening = `# Goal\nFix add in calc.py\n\n# Files most likely relevant\n## calc.py\n\`\`\`\ndef add(a, b):\n    return a - b\n\`\`\`\n\n${evidence}`;
const transcript = JSON.stringify([
  { role: 'system', content: 'You are the coder.\nUse the tools.' },
  { role: 'user', content: opening },
  { role: 'assistant', content: 'look', toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'calc.py' } }] },
  { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'def add(a, b):\n    return a - b' },
  { role: 'user', content: 'Call a tool or finish.' },
  { role: 'assistant', content: 'done', toolCalls: [] },
]);
const attempt = (extra: Partial<AttemptRecord> = {}): AttemptRecord => ({
  attempt: 2,
  status: 'RUNNING',
  startedAt: '2026-12-06T12:00:00.000Z',
  envRetries: 0,
  ...extra,
});
const task = { workflowId: 'task-p-t1', taskId: 't1', project: 'p', status: 'RUNNING' as const };
const artifacts = new Map([['2', { transcript: { text: transcript } }]]);

describe('show: the messages the model got', () => {
  it('prints each whole, with its role and the turn it came before; --json keeps them uncut', () => {
    expect(opening.length).toBeGreaterThan(2_000);
    const trajectory = buildTrajectory({ ...task, attempts: [attempt()] }, artifacts);
    const text = formatTrajectory(trajectory);
    expect(text).toContain(
      'message before turn 1 (system, 33 characters):\n  | You are the coder.\n  | Use the tools.',
    );
    expect(text).toContain(
      `message before turn 1 (user, ${opening.length} characters):\n  | # Goal\n  | Fix add in calc.py`,
    );
    expect(text).toContain('  | ## calc.py\n  | ```\n  | def add(a, b):');
    expect(text.split('\n').filter((line) => line === '  | E   assert 6 == 5')).toHaveLength(120);
    expect(text).toContain('message before turn 2 (user, 22 characters):\n  | Call a tool or finish.');
    const json = JSON.parse(JSON.stringify(trajectory)) as typeof trajectory;
    const told = 'missing' in json.attempts[0]!.transcript ? [] : json.attempts[0]!.transcript.messages;
    expect(told.map((message) => [message.role, message.beforeTurn, message.content])).toEqual([
      ['system', 1, 'You are the coder.\nUse the tools.'],
      ['user', 1, opening],
      ['user', 2, 'Call a tool or finish.'],
    ]);
  });

  it('puts each on the page collapsed, whole and escaped, and names where the whole transcript is', () => {
    const record = attempt({
      coder: {
        status: 'finished',
        summary: 'x',
        changedFiles: [],
        transcript: { hostId: 'h', path: '/work/artifacts/t/a2/transcript.json', bytes: 1 },
      } as unknown as AttemptRecord['coder'],
    });
    const html = renderTaskPage(buildTrajectory({ ...task, attempts: [record] }, artifacts));
    expect(html).toContain('<h3>messages the model got: 3</h3>');
    expect(html).toContain('the whole transcript: /work/artifacts/t/a2/transcript.json');
    expect(html).toContain(
      `<details class="told"><summary>message before turn 1 (user, ${opening.length} characters)</summary><pre># Goal`,
    );
    expect(html).toContain(`${'E   assert 6 == 5\n'.repeat(119)}E   assert 6 == 5\n</pre></details>`);
  });
});

describe('show: a running attempt tells the truth', () => {
  it('while its tests run: the change is being tested, tests running (text and page)', () => {
    const record = attempt({
      coder: { status: 'finished', summary: 'fixed', changedFiles: ['calc.py'] } as unknown as AttemptRecord['coder'],
    });
    const trajectory = buildTrajectory({ ...task, phase: 'test', attempts: [record] }, artifacts);
    for (const shown of [formatTrajectory(trajectory), renderTaskPage(trajectory)]) {
      expect(shown).toContain('the coder is done: its change is being tested now');
      expect(shown).toContain('tests: running');
      expect(shown).not.toContain('no diff yet');
      expect(shown).not.toContain('tests: not run');
    }
  });
});

describe('show: the next step', () => {
  it('ends the text and heads the page of a failed task, as status says it', () => {
    const failed = {
      ...task,
      status: 'FAILED' as const,
      recommendation: 'code_defect' as const,
      attempts: [attempt({ status: 'FAILED' })],
    };
    const trajectory = buildTrajectory(failed, artifacts);
    const next = 'next: taskloop retry task-p-t1 --hint "what the fix must do: the function at fault and the value';
    expect(formatTrajectory(trajectory).split('\n').at(-1)).toContain(next);
    expect(renderTaskPage(trajectory)).toContain(next.replace(/"/g, '&quot;'));
  });
});
