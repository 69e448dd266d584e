import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunTask } from '../../../../domain/learning/finished-task.js';
import { readStoredCards, reportCardDir, showReportCard } from '../../../../client/projects/report-cards.js';

const done = (taskId: string): RunTask => ({
  taskId,
  status: 'COMPLETED',
  attempts: 1,
  passedAtAttempt: 1,
  durationMs: 1,
  patterns: [],
  acceptedDiffTokens: 50,
  promptTokens: 10,
});
const failed = (taskId: string): RunTask => ({
  taskId,
  status: 'FAILED',
  attempts: 1,
  durationMs: 1,
  patterns: ['unknown'],
  acceptedDiffTokens: 0,
  promptTokens: 10,
});

describe('stored report cards', () => {
  it('stores one file per run, trends a later run against the latest earlier one, and is idempotent per run id', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
    const first = await showReportCard(
      'calc',
      'run-1',
      [done('a'), failed('b')],
      new Date('2026-01-01T00:00:00Z'),
      dir,
    );
    expect(first.card.trends.fidelity).toEqual({ direction: 'STABLE', delta: 0 });
    const second = await showReportCard('calc', 'run-2', [done('a'), done('b')], new Date('2026-01-02T00:00:00Z'), dir);
    expect(second.card.trends.fidelity).toEqual({ direction: 'UP', delta: 0.5, previous: 0.5 });
    expect((await readdir(reportCardDir('calc', dir))).sort()).toEqual(['run-1.json', 'run-2.json']);

    // Showing run 1 again, after run 2, still has no previous run and keeps its first file.
    const before = await readFile(path.join(reportCardDir('calc', dir), 'run-1.json'), 'utf8');
    const again = await showReportCard(
      'calc',
      'run-1',
      [done('a'), failed('b')],
      new Date('2026-01-03T00:00:00Z'),
      dir,
    );
    expect(again).toEqual(first);
    expect(await readFile(path.join(reportCardDir('calc', dir), 'run-1.json'), 'utf8')).toBe(before);
    const third = await showReportCard('calc', 'run-2', [done('a'), done('b')], new Date('2026-01-04T00:00:00Z'), dir);
    expect(third).toEqual(second);
  });

  it('skips files it cannot read and keeps projects apart', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
    await showReportCard('calc', 'r1', [failed('a')], new Date('2026-01-01T00:00:00Z'), dir);
    await writeFile(path.join(reportCardDir('calc', dir), 'broken.json'), '{not json');
    expect((await readStoredCards('calc', dir)).map((c) => c.runId)).toEqual(['r1']);
    const other = await showReportCard('other', 'r2', [done('a')], new Date('2026-01-02T00:00:00Z'), dir);
    expect(other.card.trends.fidelity.previous).toBeUndefined();
    expect(await readStoredCards('missing', dir)).toEqual([]);
  });
});
