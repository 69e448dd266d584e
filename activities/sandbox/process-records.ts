// Durable records of running test process groups (one file per worktree in the work folder), so a retried
// activity, a restarted worker or a cancellation can kill a group that an earlier, crashed worker started.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readSmallFile } from '../small-files.js';
import { killGroup } from './process-tree.js';

interface ProcessRecord {
  pgid: number;
  /** The leader's start time (field 22 of /proc/<pid>/stat), so a reused pid is never killed by mistake. */
  startTicks: string;
  worktree: string;
  recordedAt: string;
}

export const processRecordsDir = (workDir: string) => path.join(workDir, 'processes');
const recordFile = (dir: string, worktree: string) =>
  path.join(dir, `${createHash('sha256').update(path.resolve(worktree)).digest('hex').slice(0, 16)}.json`);

async function startTicksOf(pid: number): Promise<string | undefined> {
  const stat = readSmallFile(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces; fields after its closing parenthesis are plain.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

async function killRecorded(file: string): Promise<number | undefined> {
  let record: ProcessRecord;
  try {
    record = JSON.parse(readSmallFile(file) ?? '') as ProcessRecord;
  } catch {
    return undefined;
  }
  const alive = (await startTicksOf(record.pgid)) === record.startTicks;
  if (alive) killGroup(record.pgid, 'SIGKILL');
  rmSync(file, { force: true });
  return alive ? record.pgid : undefined;
}

/**
 * Records `pgid` as the group running in `worktree`; undefined removes the record (the group has ended). Once per test
 * run, on its way to start: small files, written synchronously (see activities/small-files.ts).
 */
export async function recordGroup(dir: string, worktree: string, pgid: number | undefined): Promise<void> {
  const file = recordFile(dir, worktree);
  if (pgid === undefined) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(dir, { recursive: true });
  const record: ProcessRecord = {
    pgid,
    startTicks: (await startTicksOf(pgid)) ?? '',
    worktree: path.resolve(worktree),
    recordedAt: new Date().toISOString(),
  };
  writeFileSync(file, JSON.stringify(record));
}

/** Kills the group an earlier run left in `worktree` (a retried activity must never overlap it). */
export async function killGroupIn(dir: string, worktree: string): Promise<number | undefined> {
  return killRecorded(recordFile(dir, worktree));
}

/** Kills every recorded group (a worker starting up: whatever its predecessor ran is orphaned). */
export async function killRecordedGroups(dir: string): Promise<number[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const killed: number[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.json'))) {
    const pgid = await killRecorded(path.join(dir, name));
    if (pgid !== undefined) killed.push(pgid);
  }
  return killed;
}
