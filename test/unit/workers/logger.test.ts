import { describe, expect, it } from 'vitest';
import { LineLogger } from '../../../workers/logger.js';
import type { LogSettings } from '../../../workers/log-settings.js';

const time = new Date('2026-01-02T03:04:05.000Z');

function capture(settings: Partial<LogSettings> = {}) {
  const lines: string[] = [];
  const logger = new LineLogger(
    { level: 'INFO', sdkLevel: 'WARN', format: 'text', ...settings },
    (line) => lines.push(line),
    () => time,
  );
  return { logger, lines };
}

const phaseMeta = {
  sdkComponent: 'workflow',
  workflowId: 'task-p-a',
  runId: 'r1',
  taskQueue: 'taskloop',
  taskId: 'a',
  attempt: 2,
  node: 'test',
};

describe('the worker logger', () => {
  it('writes one JSON object per line with workflowId, taskId, attempt and node', () => {
    const { logger, lines } = capture({ format: 'json' });
    logger.info('task a: code -> test', phaseMeta);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      time: time.toISOString(),
      level: 'INFO',
      message: 'task a: code -> test',
      workflowId: 'task-p-a',
      taskId: 'a',
      attempt: 2,
      node: 'test',
    });
  });

  it('writes text on one line with the ids first', () => {
    const { logger, lines } = capture();
    logger.warn('could not remove the worktree', { ...phaseMeta, path: '/w/a' });
    expect(lines).toEqual([
      '2026-01-02T03:04:05.000Z [WARN] could not remove the worktree (taskId=a attempt=2 node=test workflowId=task-p-a) {"path":"/w/a"}',
    ]);
  });

  it("keeps an activity's own retry count apart from the task's attempt", () => {
    const { logger, lines } = capture({ format: 'json' });
    logger.info('pytest started', {
      sdkComponent: 'activity',
      workflowId: 'task-p-a',
      activityType: 'runTests',
      attempt: 3,
    });
    expect(JSON.parse(lines[0] as string)).toMatchObject({ activityAttempt: 3 });
    expect(JSON.parse(lines[0] as string)).not.toHaveProperty('attempt');
  });

  it('prints a line marked oncePerWorker only the first time', () => {
    const { logger, lines } = capture();
    logger.warn('no skills are written: skillWriterModel is not set', {
      sdkComponent: 'workflow',
      oncePerWorker: 'skill-writer-unset',
      pattern: 'a',
    });
    logger.warn('no skills are written: skillWriterModel is not set', {
      sdkComponent: 'workflow',
      oncePerWorker: 'skill-writer-unset',
      pattern: 'b',
    });
    expect(lines).toHaveLength(1);
  });

  it("keeps the SDK's internal INFO lines and its no-workflows alarm out, but not taskloop's own", () => {
    const { logger, lines } = capture();
    logger.info('Workflow bundle created', { sdkComponent: 'worker' });
    logger.warn('No workflows registered, not polling for workflow tasks', { sdkComponent: 'worker' });
    logger.info('task a: claim', phaseMeta);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('task a: claim');
  });
});
