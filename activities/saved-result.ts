// A step's result kept beside the attempt's artifacts, so a retried activity that finds its side effect done (a
// commit made, a worktree removed) returns the result instead of doing the step again or failing.
// Small JSON files, read and written synchronously (see activities/small-files.ts).
import { readSmallFile, writeFileAtomic } from './small-files.js';

/** The saved result, or undefined when there is none (or it cannot be read: the step then runs again). */
export async function readSavedResult<T>(file: string): Promise<T | undefined> {
  const text = readSmallFile(file);
  try {
    return text === undefined ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

/** Saves atomically (a temporary file renamed into place): a crash leaves the old state or the new, never half. */
export async function saveResult<T>(file: string, result: T): Promise<T> {
  await writeFileAtomic(file, JSON.stringify(result), `${file}.${process.pid}.tmp`);
  return result;
}
