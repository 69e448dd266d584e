// A mirror of the project's failure history for humans, beside the repository (in its git folder): one JSON line per
// failed attempt. Never read back: the history adaptations use lives in the project's learning workflow (domain/learning/).
import { existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { HistoryEntry } from '../../domain/learning/adaptations.js';
import { openGit } from '../git/run-git.js';

export interface TaskHistoryRecord extends HistoryEntry {
  project: string;
  workflowId: string;
  attempt: number;
  /** The host that ran the attempt. */
  host?: string;
}

/** The history file in the repository's git folder; undefined while this host has no clone of a repository by URL. */
async function historyFile(repoPath: string): Promise<string | undefined> {
  if (!existsSync(repoPath)) return undefined;
  // As every git the worker runs (see activities/git/git-process.ts).
  const stdout = await openGit(repoPath).raw(['rev-parse', '--path-format=absolute', '--git-common-dir']);
  return path.join(stdout.trim(), 'taskloop', 'history.jsonl');
}

export async function appendTaskHistory(repoPath: string, record: TaskHistoryRecord): Promise<void> {
  const file = await historyFile(repoPath);
  if (!file) return;
  await mkdir(path.dirname(file), { recursive: true });
  await appendFile(file, `${JSON.stringify(record)}\n`);
}
