// A step's result kept beside the attempt's artifacts, so a retried activity that finds its side effect done (a
// commit made, a worktree removed) returns the result instead of doing the step again or failing.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The saved result, or undefined when there is none (or it cannot be read: the step then runs again). */
export async function readSavedResult<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Saves atomically (a temporary file renamed into place): a crash leaves the old state or the new, never half. */
export async function saveResult<T>(file: string, result: T): Promise<T> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(result), 'utf8');
  await rename(temp, file);
  return result;
}
