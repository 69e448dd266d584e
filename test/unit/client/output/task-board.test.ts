import { describe, expect, it } from 'vitest';
import { createTaskBoard, formatBoardRow, formatElapsed } from '../../../../client/output/task-board.js';
import { style } from '../../../../client/output/style.js';
import { taskBoardRow } from '../../../../client/watch/watch-task.js';
import type { TaskState } from '../../../../domain/task-state.js';
import type { ProjectTaskLine } from '../../../../domain/project/project-task-line.js';
import { projectBoardRow } from '../../../../client/watch/watch-project.js';

/** A terminal 24 rows high (or a pipe). */
function fakeStream(isTTY: boolean, rows: number | 'unset' = 24) {
  const written: string[] = [];
  return { isTTY, ...(rows === 'unset' ? {} : { rows }), written, write: (text: string) => written.push(text) };
}

// Built at run time: a regular expression literal with an escape character is refused by the linter.
const colour = new RegExp(`${'\u001b'}\\[[0-9;]*m`, 'g');
const plain = style(fakeStream(false), {});
const row = { id: 'add4', status: 'RUNNING', phase: 'code', attempt: 2, elapsedMs: 75_400 };

describe('the task board', () => {
  it('shows a task as id, status, phase, attempt and elapsed time', () => {
    expect(formatBoardRow(row, plain)).toBe('add4 RUNNING   code    attempt 2  1m15s');
    expect(formatBoardRow({ ...row, status: 'FAILED', note: 'last failure: code_defect at test' }, plain)).toBe(
      'add4 FAILED    code    attempt 2  1m15s last failure: code_defect at test',
    );
    expect([formatElapsed(0), formatElapsed(9_999), formatElapsed(3_600_000)]).toEqual(['0s', '9s', '60m00s']);
    expect(formatBoardRow({ id: 'mul', status: 'PENDING' }, plain).trimEnd()).toBe('mul PENDING');
  });

  it('colours the status and phase on a terminal', () => {
    const tty = style(fakeStream(true), {});
    expect(formatBoardRow(row, tty)).toBe(
      'add4 \u001b[33mRUNNING  \u001b[39m \u001b[1mcode   \u001b[22m attempt 2 \u001b[2m 1m15s\u001b[22m',
    );
    expect(formatBoardRow({ ...row, status: 'COMPLETED' }, tty)).toContain('\u001b[32mCOMPLETED');
  });

  it('redraws its lines in place on a terminal, with printed lines above it, and clears them when done', () => {
    const stream = fakeStream(true);
    const board = createTaskBoard(stream, {});
    board?.show([row, { ...row, id: 'mul', phase: 'test' }]);
    board?.show([
      { ...row, elapsedMs: 76_000 },
      { ...row, id: 'mul', phase: 'test' },
    ]);
    board?.print('no worker serves the queue');
    board?.show([row]);
    board?.done();
    board?.done();
    expect(stream.written.map((text) => text.replace(colour, ''))).toEqual([
      'add4 RUNNING   code    attempt 2  1m15s\nmul  RUNNING   test    attempt 2  1m15s\n',
      '\u001b[2A\r\u001b[Jadd4 RUNNING   code    attempt 2  1m16s\nmul  RUNNING   test    attempt 2  1m15s\n',
      '\u001b[2A\r\u001b[Jno worker serves the queue\n',
      'add4 RUNNING   code    attempt 2  1m15s\n',
      '\u001b[1A\r\u001b[J',
    ]);
  });

  it('is not used where output is not a terminal, or with NO_COLOR (plain lines instead)', () => {
    expect(createTaskBoard(fakeStream(false), {})).toBeUndefined();
    expect(createTaskBoard(fakeStream(true), { NO_COLOR: '1' })).toBeUndefined();
    expect(createTaskBoard(fakeStream(true), { TERM: 'dumb' })).toBeUndefined();
  });

  it('is not used on a terminal that reports no height (0 rows or none): plain lines, never only "… more"', () => {
    expect(createTaskBoard(fakeStream(true, 0), {})).toBeUndefined();
    expect(createTaskBoard(fakeStream(true, 'unset'), {})).toBeUndefined();
  });

  it('shows the first task however small the terminal became', () => {
    const stream = fakeStream(true, 2);
    createTaskBoard(stream, {})?.show(['a', 'b', 'c'].map((id) => ({ ...row, id })));
    const lines = (stream.written[0] ?? '').replace(colour, '').trimEnd().split('\n');
    expect(lines.map((line) => line.slice(0, 6).trimEnd())).toEqual(['a RUNN', '... 2']);
  });

  it("makes a task's row from its state and its workflow's start time", () => {
    const state = {
      taskId: 'add4',
      status: 'RUNNING',
      phase: 'test',
      attempt: 2,
      attempts: [{ attempt: 1, failure: { failureClass: 'code_defect', node: 'test' } }],
    } as unknown as TaskState;
    expect(taskBoardRow(state, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:42Z'))).toEqual({
      id: 'add4',
      status: 'RUNNING',
      phase: 'test',
      attempt: 2,
      elapsedMs: 42_000,
      note: 'last failure: code_defect at test',
    });
  });

  it('draws a footer under the rows (the project progress bar) and counts it when redrawing', () => {
    const stream = fakeStream(true);
    const board = createTaskBoard(stream, {});
    board?.show([row], '[####....] 1/2');
    board?.show([row], '[########] 2/2');
    expect(stream.written[1]?.startsWith('\u001b[2A\r\u001b[J')).toBe(true);
    expect(stream.written[1]?.endsWith('[########] 2/2\n')).toBe(true);
  });

  it("makes a project task's row from the project's view and the task's live state", () => {
    const now = new Date('2026-01-01T00:01:00Z');
    const task = {
      id: 'mul',
      status: 'RUNNING',
      workflowId: 'task-p-mul',
      phase: 'claim',
      attempt: 1,
      startedAt: '2026-01-01T00:00:30Z',
    } as unknown as ProjectTaskLine;
    const live = { status: 'PAUSED', phase: 'review', attempt: 2 } as unknown as TaskState;
    expect(projectBoardRow(task, live, now)).toEqual({
      id: 'mul',
      status: 'PAUSED',
      phase: 'review',
      attempt: 2,
      elapsedMs: 30_000,
    });
    const failed = { ...task, status: 'FAILED', endedAt: '2026-01-01T00:00:40Z', failureClass: 'code_defect' };
    expect(projectBoardRow(failed as ProjectTaskLine, undefined, now)).toEqual({
      id: 'mul',
      status: 'FAILED',
      attempt: 1,
      elapsedMs: 10_000,
      note: 'code_defect',
    });
  });

  it('fits the screen: rows past its height are counted, not drawn', () => {
    const stream = { ...fakeStream(true), rows: 6 };
    const board = createTaskBoard(stream, {});
    board?.show(
      ['a', 'b', 'c', 'd', 'e'].map((id) => ({ ...row, id })),
      '[..] 0/5',
    );
    const lines = (stream.written[0] ?? '').replace(colour, '').trimEnd().split('\n');
    expect(lines.map((line) => line.slice(0, 6).trimEnd())).toEqual(['a RUNN', 'b RUNN', '... 3', '[..] 0']);
  });
});
