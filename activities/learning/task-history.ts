// The project's failure history, kept beside the repository (in its git folder, which every host working on the
// repository shares), so a new task can adapt to what went wrong in similar earlier tasks.
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { HistoryEntry } from '../../domain/learning/adaptations.js';

export interface TaskHistoryRecord extends HistoryEntry {
  project: string;
  workflowId: string;
  attempt: number;
}

/** The history file in the repository's git folder; undefined while this host has no clone of a repository by URL. */
async function historyFile(repoPath: string): Promise<string | undefined> {
  if (!existsSync(repoPath)) return undefined;
  const { stdout } = await execa('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoPath });
  return path.join(stdout.trim(), 'taskloop', 'history.jsonl');
}

export async function appendTaskHistory(repoPath: string, record: TaskHistoryRecord): Promise<void> {
  const file = await historyFile(repoPath);
  if (!file) return;
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(record)}\n`);
}

/** Failures of the project's other tasks, one entry per task (a retried append counts once). */
export async function loadTaskHistory(
  repoPath: string,
  project: string,
  excludeTaskId: string,
  limit = 200,
): Promise<HistoryEntry[]> {
  const file = await historyFile(repoPath);
  const text = file ? await readFile(file, 'utf8').catch(() => '') : '';
  const byTask = new Map<string, { files: Set<string>; patterns: Map<string, string> }>();
  for (const line of text.split('\n').slice(-limit * 5)) {
    if (!line.trim()) continue;
    let record: TaskHistoryRecord;
    try {
      record = JSON.parse(line) as TaskHistoryRecord;
    } catch {
      continue;
    }
    if (record.project !== project || record.taskId === excludeTaskId) continue;
    const entry = byTask.get(record.taskId) ?? { files: new Set(), patterns: new Map() };
    record.files.forEach((file) => entry.files.add(file));
    // One pattern per failed attempt: keyed by attempt, so the duplicate of a retried append is dropped.
    record.patterns.forEach((pattern, index) =>
      entry.patterns.set(`${record.workflowId}#${record.attempt}#${index}`, pattern),
    );
    byTask.set(record.taskId, entry);
  }
  return [...byTask.entries()]
    .slice(-limit)
    .map(([taskId, entry]) => ({ taskId, files: [...entry.files], patterns: [...entry.patterns.values()] }));
}
