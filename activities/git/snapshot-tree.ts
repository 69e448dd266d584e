// The change an attempt made, taken as a git tree without running git over the worktree. After repository code ran
// there, the worktree is data: its files are read as bytes (regular files and links only, never followed, bounded;
// see worktree-walk.ts), written into the repository's own object store with `hash-object --no-filters`, and put in a
// tree with a private index (`update-index --index-info`, `write-tree`); a stat cache spares the unchanged files
// (stat-cache.ts). Every git command here has the attempt's
// recorded git folder and no work tree (tree-git.ts), so no configuration, attribute, nested repository or submodule
// of the worktree is ever read. The review, the judge and the commit read this tree by its id (docs/architecture.md).
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { boundFindings, cutText, MAX_PATH_TEXT } from '../../domain/payload-bounds.js';
import type { Finding } from '../../domain/records.js';
import { readSmallFile } from '../small-files.js';
import { readRecordedBase } from './create-worktree.js';
import { unknownBaseSha } from './failures.js';
import { GitError } from './git-error.js';
import { ignoreRulesOf } from './ignore-rules.js';
import { withTreeGit, type TreeGit } from './tree-git.js';
import { finding, walkWorktree, type TreeEntry, type WalkedEntry } from './worktree-walk.js';
import { loadStatCache, type StatCache } from './stat-cache.js';

/** Bounds of one snapshot: the worker reads each file whole, and every file of the worktree once. */
export interface SnapshotLimits {
  /** Files and links of the whole worktree (the base's included) the walk takes. */
  maxFiles: number;
  /**
   * Files a change may add: the run's bound on new files (the sandbox's `files` limit, 100000 by default). A change
   * over it is refused as it stands (`change_too_large`): nothing is hashed or written, and no list of its paths
   * travels anywhere.
   */
  maxNewFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const SNAPSHOT_LIMITS: SnapshotLimits = {
  maxFiles: 200_000,
  maxNewFiles: 100_000,
  maxFileBytes: 100 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
};

/** Findings kept per snapshot (the rest are counted in one more): payloads stay small. */
const MAX_SNAPSHOT_FINDINGS = 20;

export interface WorktreeSnapshot {
  /** The tree in the repository's object store holding the change: what the review reads and the commit records. */
  treeSha: string;
  /** Paths whose entry differs from the base commit's (added, modified, deleted, mode changed), sorted. */
  changedFiles: string[];
  /** Untracked paths the trusted ignore rules ignore (a folder as `name/`): never in the tree. */
  ignored: string[];
  /** What was not taken and why: a nested git folder, a FIFO or device, a file or change over the bounds. */
  findings: Finding[];
}

export interface SnapshotInput {
  worktreePath: string;
  baseSha: string;
  limits?: Partial<SnapshotLimits>;
}

/**
 * Takes the worktree's change as a tree (see the file's comment). Throws non-retryable `UnknownBaseRef` when
 * `baseSha` is not a commit, `InvalidWorktree` (or `WorktreeTampered`) when the worktree has no git folder of its own.
 */
export async function snapshotWorktree(input: SnapshotInput): Promise<WorktreeSnapshot> {
  return takeWorktree(input, true);
}

/**
 * What a snapshot would hold against `baseSha`, without writing anything into the object store (the change's paths,
 * the ignored ones, the findings): e.g. whether a worktree about to be removed had a change.
 */
export async function changesInWorktree(input: SnapshotInput): Promise<Omit<WorktreeSnapshot, 'treeSha'>> {
  const { treeSha: _unwritten, ...changes } = await takeWorktree(input, false);
  return changes;
}

async function takeWorktree(input: SnapshotInput, write: boolean): Promise<WorktreeSnapshot> {
  const limits = { ...SNAPSHOT_LIMITS, ...input.limits };
  return withTreeGit(input.worktreePath, async (git, privateDir) => {
    // A sha starting with "-" would be read as an option.
    if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(input.baseSha)) throw unknownBaseSha(input.baseSha, input.worktreePath);
    const base = await listTree(git, input.baseSha, input.worktreePath);
    const rules = ignoreRulesOf(readExclude(git.gitDir), await readIgnoreFiles(git, base));
    const algorithm: 'sha1' | 'sha256' = input.baseSha.length === 64 ? 'sha256' : 'sha1';
    // Taken before the walk reads any stat: the stat cache's racy-git rule counts from here.
    const cache = loadStatCache(input.worktreePath, algorithm, Date.now());
    const walked = walkWorktree(path.resolve(input.worktreePath), base, rules, limits);
    const tooMany = tooManyNewFiles(base, walked.entries, limits.maxNewFiles);
    if (tooMany)
      return { treeSha: await baseTree(git, input.baseSha), changedFiles: [], ignored: [], findings: [tooMany] };
    const take = async (): Promise<WorktreeSnapshot> => {
      const findings = [...walked.findings];
      const hashing = { limits, copies: write ? privateDir : undefined, algorithm, cache };
      const blobs = hashEntries(input.worktreePath, walked.entries, base, hashing, findings);
      const entries = [...walked.kept, ...blobs.entries];
      const taken = {
        changedFiles: changedPaths(base, entries),
        ignored: walked.ignored,
        findings: boundFindings(findings, MAX_SNAPSHOT_FINDINGS),
      };
      if (!write) return { treeSha: '', ...taken };
      await writeBlobs(git, blobs.toWrite);
      return { treeSha: await writeTree(git, path.join(privateDir, 'index'), entries, cache), ...taken };
    };
    return take().catch(async (error: unknown) => {
      // A blob the cache named is gone from the store (a `git gc --prune=now` meanwhile): hash everything again.
      if (!(error instanceof GitError)) throw error;
      cache.drop();
      return take();
    });
  });
}

/**
 * The tree of `entries` in the object store: the one the last snapshot wrote when the entries are the same (and the
 * store still has it), else written with a private index.
 */
async function writeTree(git: TreeGit, index: string, entries: TreeEntry[], cache: StatCache): Promise<string> {
  const info = entries.map((entry) => `${entry.mode} ${entry.id}\t${entry.path}\0`).join('');
  const digest = createHash('sha256').update(info).digest('hex');
  const last = cache.lastTree(digest);
  if (last && (await hasObject(git, last))) return last;
  if (entries.length > 0) await git.run(['update-index', '-z', '--index-info'], { input: Buffer.from(info), index });
  const treeSha = (await git.text(['write-tree'], { index })).trim();
  // Every blob it remembered is in the store now (a cached one was stored by the snapshot that remembered it).
  cache.save([digest, treeSha]);
  return treeSha;
}

/** The base commit's tree, every entry (`ls-tree -r`, gitlinks included). */
export async function listTree(git: TreeGit, commit: string, worktreePath: string): Promise<TreeEntry[]> {
  let out: string;
  try {
    out = await git.text(['ls-tree', '-r', '-z', '--full-tree', `${commit}^{tree}`]);
  } catch (error) {
    if (error instanceof GitError) throw unknownBaseSha(commit, worktreePath);
    throw error;
  }
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    const tab = record.indexOf('\t');
    if (tab === -1) continue;
    const [mode = '', , id = ''] = record.slice(0, tab).split(' ');
    entries.push({ mode, id, path: record.slice(tab + 1) });
  }
  return entries;
}

/** The repository's `info/exclude` (in its common git folder, which repository code never sees). */
function readExclude(gitDir: string): string {
  const common = path.resolve(gitDir, (readSmallFile(path.join(gitDir, 'commondir')) ?? '.').trim());
  return readSmallFile(path.join(common, 'info', 'exclude')) ?? '';
}

async function hasObject(git: TreeGit, id: string): Promise<boolean> {
  return git.run(['cat-file', '-e', id]).then(
    () => true,
    () => false,
  );
}

/** The base commit's `.gitignore` files, read from the object store (one `cat-file --batch`). */
async function readIgnoreFiles(git: TreeGit, base: TreeEntry[]): Promise<{ path: string; text: string }[]> {
  const files = base.filter((entry) => /(^|\/)\.gitignore$/.test(entry.path) && entry.mode.startsWith('1006'));
  if (files.length === 0) return [];
  const out = await git.run(['cat-file', '--batch'], { input: Buffer.from(files.map((f) => `${f.id}\n`).join('')) });
  const read: { path: string; text: string }[] = [];
  let offset = 0;
  for (const file of files) {
    const header = out.subarray(offset, out.indexOf(10, offset)).toString('utf8');
    offset += header.length + 1;
    const size = Number(header.split(' ')[2] ?? 0);
    read.push({ path: file.path, text: out.subarray(offset, offset + size).toString('utf8') });
    offset += size + 1;
  }
  return read;
}

interface HashedBlobs {
  entries: TreeEntry[];
  /** Copies of new contents in the private folder, with the id each must get. */
  toWrite: { file: string; id: string }[];
}

interface Hashing {
  limits: SnapshotLimits;
  copies: string | undefined;
  algorithm: 'sha1' | 'sha256';
  cache: StatCache;
}

/**
 * Reads each entry's bytes (never through a link), hashes them as git does and, given a folder for `copies`, copies
 * there what the store lacks. An entry whose stat matches the stat cache's is taken by its cached id, unread.
 */
function hashEntries(
  worktreePath: string,
  walked: WalkedEntry[],
  base: TreeEntry[],
  { limits, copies, algorithm, cache }: Hashing,
  findings: Finding[],
): HashedBlobs {
  const known = new Set(base.map((entry) => entry.id));
  const hashed: HashedBlobs = { entries: [], toWrite: [] };
  let total = 0;
  for (const entry of walked) {
    const read = cachedEntry(cache, entry, limits) ?? readEntry(worktreePath, entry, limits);
    if ('rule' in read) {
      if (read.problem) findings.push(finding(read.rule, entry.path, read.problem));
      continue;
    }
    total += 'bytes' in read ? read.bytes.length : read.size;
    if (total > limits.maxTotalBytes) {
      findings.push(
        finding(
          'change_too_large',
          entry.path,
          `the worktree's files hold more than ${limits.maxTotalBytes} bytes: the change was not taken past ${entry.path}; delete generated files or split the task`,
        ),
      );
      break;
    }
    const id = 'id' in read ? read.id : blobId(read.bytes, algorithm);
    hashed.entries.push({ mode: read.mode, id, path: entry.path });
    if (entry.stats) cache.remember(entry.path, entry.stats, id);
    if (copies !== undefined && 'bytes' in read && !known.has(id)) {
      const file = path.join(copies, `blob-${hashed.toWrite.length}`);
      writeFileSync(file, read.bytes, { mode: 0o600 });
      hashed.toWrite.push({ file, id });
      known.add(id);
    }
  }
  return hashed;
}

function readEntry(worktreePath: string, entry: WalkedEntry, limits: SnapshotLimits): Read {
  return entry.kind === 'link' ? readLink(worktreePath, entry.path) : readRegular(worktreePath, entry.path, limits);
}

/** The entry as the stat cache knows it (id, mode, size), when its stat still matches and it is within the bounds. */
function cachedEntry(
  cache: StatCache,
  entry: WalkedEntry,
  limits: SnapshotLimits,
): { id: string; mode: string; size: number } | undefined {
  const stats = entry.stats;
  if (!stats || stats.size > limits.maxFileBytes) return undefined;
  const id = cache.lookup(entry.path, stats);
  if (!id) return undefined;
  return { id, mode: entry.kind === 'link' ? '120000' : stats.mode & 0o100 ? '100755' : '100644', size: stats.size };
}

type Read = { bytes: Buffer; mode: string } | { problem?: string; rule: string };

/** A regular file's bytes: opened without following a link and without waiting on a FIFO, checked, bounded. */
function readRegular(root: string, relative: string, limits: SnapshotLimits): Read {
  let fd: number;
  try {
    fd = openSync(path.join(root, relative), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return { rule: 'special_file' }; // gone meanwhile, or swapped for a link: not taken
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile())
      return {
        rule: 'special_file',
        problem: `${relative} is not a regular file: only files and links can be committed; delete it`,
      };
    if (stats.size > limits.maxFileBytes)
      return {
        rule: 'file_too_large',
        problem: `${relative} holds ${stats.size} bytes, more than the ${limits.maxFileBytes} a file may have: not taken; delete it or keep it out of the repository`,
      };
    const bytes = Buffer.alloc(stats.size);
    let done = 0;
    while (done < bytes.length) {
      const count = readSync(fd, bytes, done, bytes.length - done, done);
      if (count === 0) break;
      done += count;
    }
    // Git records the owner's execute bit only.
    return { bytes: bytes.subarray(0, done), mode: stats.mode & 0o100 ? '100755' : '100644' };
  } finally {
    closeSync(fd);
  }
}

/** A link's target text, as git stores a link (mode 120000); the link is never followed. */
function readLink(root: string, relative: string): Read {
  try {
    return { bytes: readlinkSync(path.join(root, relative), { encoding: 'buffer' }), mode: '120000' };
  } catch {
    return { rule: 'special_file' };
  }
}

/** Git's object id of a blob: the hash of `blob <size>\0` and the bytes. */
export function blobId(bytes: Buffer, algorithm: 'sha1' | 'sha256' = 'sha1'): string {
  return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** Writes the copies into the object store (one `hash-object`, no filters) and checks git got the same ids. */
async function writeBlobs(git: TreeGit, blobs: { file: string; id: string }[]): Promise<void> {
  if (blobs.length === 0) return;
  const input = Buffer.from(blobs.map((blob) => `${blob.file}\n`).join(''));
  const ids = (await git.text(['hash-object', '-w', '--no-filters', '--stdin-paths'], { input })).trim().split('\n');
  blobs.forEach((blob, index) => {
    if (ids[index] !== blob.id) throw new Error(`git stored ${blob.file} as ${ids[index]}, not ${blob.id}`);
  });
}

/** Paths whose entry differs between the base and the new tree, sorted. */
function changedPaths(base: TreeEntry[], entries: TreeEntry[]): string[] {
  const before = new Map(base.map((entry) => [entry.path, `${entry.mode} ${entry.id}`]));
  const after = new Map(entries.map((entry) => [entry.path, `${entry.mode} ${entry.id}`]));
  const changed = new Set<string>();
  for (const [file, value] of after) if (before.get(file) !== value) changed.add(file);
  for (const file of before.keys()) if (!after.has(file)) changed.add(file);
  return [...changed].sort();
}

/**
 * A change that adds more files than a run may make (`maxNewFiles`) is refused before any byte is read: its one
 * finding, `change_too_large`; the snapshot then has the base's tree (nothing of the change is written) and no paths.
 */
function tooManyNewFiles(base: TreeEntry[], entries: WalkedEntry[], maxNewFiles: number): Finding | undefined {
  const tracked = new Set(base.map((entry) => entry.path));
  const added = entries.filter((entry) => !tracked.has(entry.path));
  if (added.length <= maxNewFiles) return undefined;
  const first = added[0]?.path;
  const message = `the change adds ${added.length} files, more than the ${maxNewFiles} a run may make: it was not taken (nothing of it is committed or reviewed); delete the generated files, keep them out of the worktree, or split the task`;
  return { rule: 'change_too_large', message, ...(first === undefined ? {} : { file: cutText(first, MAX_PATH_TEXT) }) };
}

/** The id of the base commit's tree. */
async function baseTree(git: TreeGit, baseSha: string): Promise<string> {
  return (await git.text(['rev-parse', '--verify', `${baseSha}^{tree}`])).trim();
}

/**
 * The worktree's files as a snapshot would take them (tracked and untracked-not-ignored, as `git ls-files -co
 * --exclude-standard` lists them), by walking it as data: nothing is read but names and types.
 */
export async function listWorktreeFiles(worktreePath: string): Promise<string[]> {
  return withTreeGit(worktreePath, async (git) => {
    const head = async () => (await git.text(['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
    const baseSha = (await readRecordedBase(worktreePath)) ?? (await head());
    const base = await listTree(git, baseSha, worktreePath);
    const rules = ignoreRulesOf(readExclude(git.gitDir), await readIgnoreFiles(git, base));
    const walked = walkWorktree(path.resolve(worktreePath), base, rules, SNAPSHOT_LIMITS);
    return [...new Set([...walked.kept, ...walked.entries].map((entry) => entry.path))].sort();
  });
}
