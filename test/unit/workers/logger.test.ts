import { describe, expect, it } from 'vitest';
import { LineLogger } from '../../../workers/logger.js';
import { parseLogSettings, type LogSettings } from '../../../workers/log-settings.js';

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

  it.each(['text', 'json'] as const)(
    "scrubs the worker's secret values and key formats from %s lines, message and fields alike",
    (format) => {
      const planted = 'hunter2-planted-secret';
      const { logger, lines } = capture({ format, secretValues: [planted] });
      logger.error(`provider said: bad key ${planted}`, {
        ...phaseMeta,
        error: new Error(`401 for ${planted}`),
        request: { headers: { authorization: `Bearer ${planted}` } },
        leaked: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789',
      });
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toContain(planted);
      expect(lines[0]).not.toContain('sk-ant-api03');
      expect(lines[0]).toContain('provider said: bad key [redacted]');
      expect(lines[0]).toContain('401 for [redacted]');
    },
  );

  it('takes the secret values from secret-named variables of the environment', () => {
    const settings = parseLogSettings({ OPENAI_API_KEY: 'sk-local-value-1234', HOME: '/root' });
    expect(settings.success && settings.data.secretValues).toEqual(['sk-local-value-1234']);
  });
});
