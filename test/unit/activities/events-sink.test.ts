import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { appendFile } from 'node:fs/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
      // The secrets are read once per append: every event of the batch is scrubbed with them.
      const second = {
        id: 'e2',
        type: 'TASK_FAILED',
        payload: { hint: 'again events-canary-"quoted"' },
      } as unknown as TaskEvent;
      await appendEvents(file, [event, second]);
      const text = await readFile(file, 'utf8');
      expect(text).not.toContain('events-canary');
      const [first, next] = text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown);
      expect(first).toMatchObject({ payload: { reason: 'saw [redacted] in output' } });
      expect(next).toMatchObject({ payload: { hint: 'again [redacted]' } });
    } finally {
      delete process.env.EVENTS_TEST_SECRET;
    }
  });

  const event = (id: string, reason: string, at = '2026-11-30T00:00:00.000Z') =>
    ({ id, type: 'TASK_FAILED', at, payload: { reason } }) as unknown as TaskEvent;
  const linesOf = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean);

  async function eventsFile(): Promise<string> {
    const dir = await makeTempDir();
    dirs.push(dir);
    return path.join(dir, 'events.jsonl');
  }

  it('writes a retried flush once (the same process)', async () => {
    const file = await eventsFile();
    const batch = [event('wf#1', 'a'), event('wf#2', 'b')];
    await appendEvents(file, batch);
    await appendEvents(file, batch);
    await appendEvents(file, [event('wf#3', 'c')]);
    expect((await linesOf(file)).map((line) => (JSON.parse(line) as TaskEvent).id)).toEqual(['wf#1', 'wf#2', 'wf#3']);
  });

  it("skips a dead worker's last events when another process flushes them again, but keeps a different event with the same id", async () => {
    const file = await eventsFile();
    await appendEvents(file, [event('wf#1', 'a'), event('wf#2', 'b')]);
    // A torn line, as a worker killed mid-append leaves it.
    await appendFile(file, '{"id":"wf#9","ty');
    vi.resetModules();
    const fresh = (await import('../../../activities/events-sink.js')).appendEvents;
    expect(fresh).not.toBe(appendEvents);

    // Run again in a new workflow task attempt: the same events, built at a later workflow time.
    const later = '2026-11-30T00:00:12.000Z';
    await fresh(file, [
      event('wf#1', 'a', later),
      event('wf#2', 'b', later),
      event('wf#2', 'another run'),
      event('wf#9', 'z'),
    ]);

    const ids = (await linesOf(file)).flatMap((line) => {
      try {
        return [(JSON.parse(line) as TaskEvent).id];
      } catch {
        return [];
      }
    });
    expect(ids).toEqual(['wf#1', 'wf#2', 'wf#2', 'wf#9']);
    expect(await readFile(file, 'utf8')).toContain('another run');
  });
});
