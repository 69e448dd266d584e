// The task board on a real terminal (a pty from util-linux `script`) that reports 0 rows, as `stty rows 0` or a pty
// nobody sized leaves it: Node then says `process.stdout.rows === 0`, and the board must give way to plain lines
// (a board there had no room and redrew only "... 1 more", never the task).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
// What `taskloop watch` and `run --wait` do with their stream: a board when there is one, else a plain line a change.
const program = `
import { createTaskBoard, formatBoardRow } from '${root}/client/output/task-board.ts';
import { style } from '${root}/client/output/style.ts';
const row = { id: 'fix-add', status: 'RUNNING', phase: 'code', attempt: 1, elapsedMs: 4000 };
const board = createTaskBoard(process.stdout);
console.log('rows=' + process.stdout.rows + ' board=' + (board ? 'yes' : 'no'));
if (board) board.show([row]);
else console.log(formatBoardRow(row, style(process.stdout)));
`;

async function inPty(sttyRows: number): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'board-pty-')), 'board.mts');
  await writeFile(file, program);
  const { FORCE_COLOR: _force, NO_COLOR: _no, ...env } = process.env;
  const { stdout } = await execa('script', ['-qec', `stty rows ${sttyRows} cols 100; ${tsx} ${file}`, '/dev/null'], {
    cwd: root,
    env: { ...env, TERM: 'xterm' },
    extendEnv: false,
    timeout: 60_000,
  });
  return stdout.replace(new RegExp(`${'\u001b'}\\[[0-9;]*[A-Za-z]`, 'g'), '');
}

describe('the board on a terminal of 0 rows', () => {
  it('prints the task as a plain line, not a "... more" line', async () => {
    const output = await inPty(0);
    expect(output).toContain('rows=0 board=no');
    expect(output).toMatch(/fix-add +RUNNING +code +attempt 1/);
    expect(output).not.toContain('more');
  }, 90_000);

  it('still redraws in place on a terminal with a height', async () => {
    const output = await inPty(30);
    expect(output).toContain('rows=30 board=yes');
    expect(output).toMatch(/fix-add +RUNNING +code +attempt 1/);
  }, 90_000);
});
