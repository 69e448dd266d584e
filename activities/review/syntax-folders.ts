// The syntax server's (activities/review/syntax-server.ts) working folders: empty folders under the system's temporary
// folder, one per parser. A worker removes its own when the parser exits or the worker exits normally; one killed
// (SIGKILL, a lost container) never does: about 1,250 had piled up on the bench machine. They carry their owner
// (activities/sandbox/owner-process.ts), so the next worker to start removes a dead worker's.
import { mkdtempSync } from 'node:fs';
import { readdir, rm, rmdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeadOwner, ownerTag } from '../sandbox/owner-process.js';

const ownedName = /^taskloop-syntax-(\d+)-(\d+)-[A-Za-z0-9]{6}$/;
// Made before owners were in the name. No parser writes into its folder, so one of these is empty; a live one of an
// older worker only serves as a parser's working folder, which opens no file in it.
const ownerlessName = /^taskloop-syntax-[A-Za-z0-9]{6}$/;

/** A new working folder for a parser of this process. */
export function makeSyntaxFolder(tmp = os.tmpdir()): string {
  return mkdtempSync(path.join(tmp, `taskloop-syntax-${ownerTag()}-`));
}

/**
 * Removes the working folders of parsers whose worker has ended (and empty ones from before owners were named);
 * returns how many. A live worker's stay, and so do another PID namespace's: their process ids mean nothing here.
 */
export async function removeDeadWorkersSyntaxFolders(tmp = os.tmpdir()): Promise<number> {
  const names = await readdir(tmp).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const folder = path.join(tmp, name);
    const [, namespace, owner] = ownedName.exec(name) ?? [];
    if (isDeadOwner(namespace, owner)) {
      await rm(folder, { recursive: true, force: true });
      removed += 1;
    } else if (ownerlessName.test(name) && (await isFolder(folder)) && (await removeIfEmpty(folder))) removed += 1;
  }
  return removed;
}

const isFolder = (file: string) =>
  stat(file).then(
    (found) => found.isDirectory(),
    () => false,
  );

/** rmdir removes only an empty folder: anything else of that name (not ours after all) stays. */
const removeIfEmpty = (folder: string) =>
  rmdir(folder).then(
    () => true,
    () => false,
  );
