// Lists a worktree as untrusted data: `lstat` on every entry, no link followed, nothing run. What git would take (`git
// add -A`) is decided here from the base commit's tracked paths and trusted ignore rules (ignore-rules.ts); what git
// would have read as a program's source (a nested repository, a submodule's folder) is a finding and never taken.
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { Finding } from '../../domain/records.js';
import type { IgnoreRules } from './ignore-rules.js';

/** One entry of the base commit's tree (`git ls-tree -r`): mode, object id, repository path. */
export interface TreeEntry {
  mode: string;
  id: string;
  path: string;
}

/** A file or link the change holds, by its repository path ('/'-separated). */
export interface WalkedEntry {
  path: string;
  kind: 'file' | 'link';
  /** Its `lstat` as the walk read it (times in ms, to a fraction of a microsecond): what the stat cache matches (stat-cache.ts). */
  stats?: Stats;
}

export interface WalkLimits {
  /** Most files and links taken; past it the walk stops with a `change_too_large` finding. */
  maxFiles: number;
}

export interface Walked {
  entries: WalkedEntry[];
  /** Base entries kept as they are: gitlinks, and what lay in a folder left out as another repository. */
  kept: TreeEntry[];
  /** Untracked paths the rules ignore (a wholly ignored folder as `name/`), for removal before the tests. */
  ignored: string[];
  findings: Finding[];
  /** True when a bound stopped the walk: the listing is incomplete. */
  stopped: boolean;
}

// `.git` in any case, and the names Windows and macOS file systems read as `.git` (git refuses them in a path).
const gitName = /^(\.git[. ]*|git~\d+)$/i;

/** What one walk reads against (the base tree, the rules, the bounds) and what it has found so far. */
interface Walk {
  root: string;
  base: TreeEntry[];
  tracked: Map<string, TreeEntry>;
  /** Every folder that holds a tracked path: never left out as ignored. */
  trackedDirs: Set<string>;
  rules: IgnoreRules;
  limits: WalkLimits;
  walked: Walked;
}

/** Walks `root`; `base` is the base commit's tree, `rules` the trusted ignore rules. */
export function walkWorktree(root: string, base: TreeEntry[], rules: IgnoreRules, limits: WalkLimits): Walked {
  const walk: Walk = {
    root,
    base,
    tracked: new Map(base.map((entry) => [entry.path, entry])),
    trackedDirs: foldersHolding(base),
    rules,
    limits,
    walked: { entries: [], kept: [], ignored: [], findings: [], stopped: false },
  };
  visitFolder(walk, '', false);
  return walk.walked;
}

function foldersHolding(base: TreeEntry[]): Set<string> {
  const folders = new Set<string>();
  for (const entry of base) {
    for (let slash = entry.path.indexOf('/'); slash !== -1; slash = entry.path.indexOf('/', slash + 1))
      folders.add(entry.path.slice(0, slash));
  }
  return folders;
}

/** Visits a folder's entries in name order; a folder holding a git folder is another repository, never entered. */
function visitFolder(walk: Walk, dir: string, underIgnored: boolean): void {
  const full = dir === '' ? walk.root : path.join(walk.root, dir);
  let names: string[];
  try {
    names = readdirSync(full).sort();
  } catch {
    return; // gone or unreadable meanwhile: what is not there is not taken
  }
  if (dir !== '' && names.some((name) => gitName.test(name))) {
    const message = `${dir}/ holds a git folder (.git): another repository inside the change is never taken; delete ${dir}/.git, or commit its files as plain files`;
    walk.walked.findings.push(finding('nested_git', dir, message));
    // What the base tracked below it stays as it was.
    walk.walked.kept.push(...walk.base.filter((entry) => entry.path.startsWith(`${dir}/`)));
    return;
  }
  for (const name of names) {
    if (walk.walked.stopped) return;
    const relative = dir === '' ? name : `${dir}/${name}`;
    if (dir === '' && name === '.git') continue; // the worktree's own pointer (or a plain checkout's folder)
    if (gitName.test(name) || name.includes('\\')) {
      const message = `${relative}: git refuses this name in a path (it reads as .git on some systems); rename it`;
      walk.walked.findings.push(finding('nested_git', relative, message));
      continue;
    }
    const stats = lstatSync(path.join(full, name), { throwIfNoEntry: false });
    if (!stats) continue;
    visitEntry(walk, relative, stats, underIgnored);
  }
}

/** One entry: a submodule's folder, a folder, or a file or link to take (unless refused or ignored). */
function visitEntry(walk: Walk, relative: string, stats: Stats, underIgnored: boolean): void {
  const { walked, rules } = walk;
  const base = walk.tracked.get(relative);
  if (base?.mode === '160000') return keepSubmodule(walk, base, stats);
  if (stats.isDirectory()) {
    const ignored = underIgnored || rules.ignores(relative, true);
    if (ignored && !walk.trackedDirs.has(relative)) walked.ignored.push(`${relative}/`);
    else visitFolder(walk, relative, ignored);
    return;
  }
  const kind = stats.isFile() ? 'file' : stats.isSymbolicLink() ? 'link' : undefined;
  if (!kind) {
    const message = `${relative} is ${specialKind(stats)}: only files and links can be committed; delete it`;
    walked.findings.push(finding('special_file', relative, message));
    return;
  }
  // Git itself refuses these as links (a checkout would read a file outside the repository through them).
  if (kind === 'link' && /^\.git(modules|attributes|ignore)$/i.test(relative.slice(relative.lastIndexOf('/') + 1))) {
    const message = `${relative} is a symbolic link: git refuses one by this name; commit a file`;
    walked.findings.push(finding('special_file', relative, message));
    return;
  }
  if (!base && (underIgnored || rules.ignores(relative, false))) {
    walked.ignored.push(relative);
    return;
  }
  takeEntry(walk, { path: relative, kind, stats });
}

/** A submodule's folder: the commit keeps the gitlink; a repository made in it is a finding (visitFolder says so). */
function keepSubmodule(walk: Walk, gitlink: TreeEntry, stats: Stats): void {
  const relative = gitlink.path;
  walk.walked.kept.push(gitlink);
  if (stats.isDirectory() && readdirSafe(path.join(walk.root, relative)).some((name) => gitName.test(name))) {
    const message = `${relative}/ (a submodule's folder) holds a git folder made by the attempt: it is never read; delete ${relative}/.git`;
    walk.walked.findings.push(finding('nested_git', relative, message));
  }
}

/** Takes a file or link; past the bound on files the walk stops, and says the change was not taken whole. */
function takeEntry(walk: Walk, entry: WalkedEntry): void {
  const { walked, limits } = walk;
  if (walked.entries.length >= limits.maxFiles) {
    const message = `the worktree holds more than ${limits.maxFiles} files: the change was not taken past ${entry.path}; delete generated files or split the task`;
    walked.findings.push(finding('change_too_large', entry.path, message));
    walked.stopped = true;
    return;
  }
  walked.entries.push(entry);
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function specialKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a file';
}

export function finding(rule: string, file: string, message: string): Finding {
  return { rule, file, message };
}
