// The syntax checker's working folders: a worker starting up removes those of workers that have ended (a killed worker
// never removes its own), and leaves a live worker's, another PID namespace's, and anything not of its making.
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSyntaxFolder, removeDeadWorkersSyntaxFolders } from '../../../../activities/review/syntax-folders.js';
import { deadPid } from '../../../support/dead-pid.js';
import { makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('syntax checker folders left by dead workers', () => {
  it('removes a dead worker’s folders and ownerless empty ones; keeps the rest', async () => {
    const tmp = await makeTempDir();
    dirs.push(tmp);
    const live = makeSyntaxFolder(tmp);
    // The same name as this process's, with the owner swapped for a process that has ended.
    const ownPid = `-${process.pid}-`;
    expect(path.basename(live)).toContain(ownPid);
    const dead = live.replace(ownPid, `-${await deadPid()}-`).replace(/.{6}$/, 'dEad01');
    await mkdir(dead);
    await writeFile(path.join(dead, 'left.txt'), 'anything the parser left');
    const namespace = /^taskloop-syntax-(\d+)-/.exec(path.basename(live))?.[1];
    const foreign = path.join(tmp, `taskloop-syntax-${Number(namespace) + 1}-${await deadPid()}-f0reig`);
    const ownerlessEmpty = path.join(tmp, 'taskloop-syntax-0ld0ne');
    const ownerlessFull = path.join(tmp, 'taskloop-syntax-0ld1wo');
    const unrelated = path.join(tmp, `taskloop-syntaxes-${namespace}-${await deadPid()}-abcdef`);
    for (const folder of [foreign, ownerlessEmpty, ownerlessFull, unrelated]) await mkdir(folder);
    await writeFile(path.join(ownerlessFull, 'keep.txt'), 'not a parser folder after all');

    expect(await removeDeadWorkersSyntaxFolders(tmp)).toBe(2);

    expect(await exists(dead)).toBe(false);
    expect(await exists(ownerlessEmpty)).toBe(false);
    for (const kept of [live, foreign, ownerlessFull, unrelated]) expect(await exists(kept)).toBe(true);
  });
});
