// The default event sink: one JSON object per line, appended, each event once. A flush that runs again (a local
// activity retried because its worker died before the workflow task completed) finds its events already written and
// skips them: this process remembers the events it wrote (by id and content apart from the time: an event is skipped
// only when the same one is there), and its first append to a file reads the lines at the file's end, where a dead
// worker's last appends are.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import type { TaskEvent } from '../domain/events.js';
import { scrubSecrets } from '../domain/secrets.js';
import { resolveSecretValues } from './secret-values.js';

/** How much of a file's end the first append reads for events already written. */
const TAIL_BYTES = 1024 * 1024;
/** Lines remembered per file; the oldest are forgotten first (a retried flush is always a recent one). */
const REMEMBERED_LINES = 50_000;

interface Written {
  keys: Set<string>;
  /** The file ends inside a line (a worker killed mid-append): the next append starts on a new line. */
  torn: boolean;
}

const writtenLines = new Map<string, Promise<Written>>();

export async function appendEvents(file: string, events: TaskEvent[]): Promise<void> {
  if (events.length === 0) return;
  const key = path.resolve(file);
  let written = writtenLines.get(key);
  if (!written) {
    written = linesAtEnd(key).catch((error: unknown) => {
      writtenLines.delete(key);
      throw error;
    });
    writtenLines.set(key, written);
  }
  const state = await written;
  const seen = state.keys;
  const fresh = new Map<string, string>();
  // Resolved once per append, not per event: reading the environment is most of a scrub's cost.
  const secrets = resolveSecretValues([]);
  for (const event of events) {
    const line = JSON.stringify(scrubSecrets(event, secrets));
    const lineId = lineKey(line);
    if (!seen.has(lineId) && !fresh.has(lineId)) fresh.set(lineId, line);
  }
  if (fresh.size === 0) return;
  // Synchronous, as the worker's other small writes (activities/small-files.ts): the append sits between a workflow
  // activation and its task's completion.
  mkdirSync(path.dirname(key), { recursive: true });
  appendFileSync(key, (state.torn ? '\n' : '') + [...fresh.values()].join('\n') + '\n');
  state.torn = false;
  for (const lineId of fresh.keys()) remember(seen, lineId);
}

/**
 * An event line's id and a digest of the line without its time: a flush run again in a new workflow task attempt
 * builds the same events at a later workflow time.
 */
function lineKey(line: string): string {
  let parsed: { id?: unknown; at?: unknown } | undefined;
  try {
    parsed = JSON.parse(line) as { id?: unknown; at?: unknown };
  } catch {
    return `torn ${line}`;
  }
  const { at: _at, ...rest } = parsed ?? {};
  const id = typeof parsed?.id === 'string' ? parsed.id : '';
  return `${id} ${createHash('sha256').update(JSON.stringify(rest)).digest('base64')}`;
}

function remember(seen: Set<string>, key: string): void {
  seen.add(key);
  if (seen.size > REMEMBERED_LINES) seen.delete(seen.values().next().value as string);
}

/** The keys of the event lines in the last TAIL_BYTES of `file` (none when it does not exist yet), and whether it is torn. */
async function linesAtEnd(file: string): Promise<Written> {
  const keys = new Set<string>();
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { keys, torn: false };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    // The first line may be cut by the tail; a torn line (a worker killed mid-append) matches no event either.
    for (const line of size > length ? lines.slice(1) : lines) if (line.trim()) remember(keys, lineKey(line));
    return { keys, torn: length > 0 && buffer[length - 1] !== 0x0a };
  } finally {
    await handle.close();
  }
}
