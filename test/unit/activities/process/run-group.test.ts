import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGroup } from '../../../../activities/process/run-group.js';

describe('runGroup', () => {
  it('fails the run, not the process, when its log files cannot be opened (their folder removed under it)', async () => {
    const gone = path.join(os.tmpdir(), `taskloop-gone-${process.pid}-${Date.now()}`, 'raw');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const run = runGroup(
        {
          command: 'sh',
          args: ['-c', 'sleep 0.5; echo done'],
          cwd: os.tmpdir(),
          env: { PATH: process.env.PATH },
          stdoutFile: path.join(gone, 'stdout.log'),
          stderrFile: path.join(gone, 'stderr.log'),
          maxOutputBytes: 1024,
        },
        () => undefined,
      );
      await expect(run).rejects.toMatchObject({ code: 'ENOENT' });
      // Let any rejection nobody held reach the process before looking.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
