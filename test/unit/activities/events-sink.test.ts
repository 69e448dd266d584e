import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendEvents } from '../../../activities/events-sink.js';
import type { TaskEvent } from '../../../domain/events.js';
import { makeTempDir, removeDirs } from '../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

describe('appendEvents', () => {
  it('writes each event through the scrubber', async () => {
    const dir = await makeTempDir();
    dirs.push(dir);
    const file = path.join(dir, 'events.jsonl');
    process.env.EVENTS_TEST_SECRET = 'events-canary-"quoted"';
    try {
      const event = {
        id: 'e1',
        type: 'TASK_FAILED',
        payload: { reason: 'saw events-canary-"quoted" in output' },
      } as unknown as TaskEvent;
      await appendEvents(file, [event]);
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain('events-canary');
      expect(JSON.parse(text)).toMatchObject({ payload: { reason: 'saw [redacted] in output' } });
    } finally {
      delete process.env.EVENTS_TEST_SECRET;
    }
  });
});
