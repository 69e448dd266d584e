// The default event sink: one JSON object per line, appended. Ids let a reader drop the duplicate of a retried append.
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { TaskEvent } from '../domain/events.js';
import { scrubDataForSink } from './secret-values.js';

export async function appendEvents(file: string, events: TaskEvent[]): Promise<void> {
  if (events.length === 0) return;
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, events.map((event) => JSON.stringify(scrubDataForSink(event))).join('\n') + '\n');
}
