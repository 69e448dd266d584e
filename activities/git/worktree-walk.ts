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

/** Walks `root`; `base` is the base commit's tree, `rules` the trusted ignore rules. */
export function walkWorktree(root: string, base: TreeEntry[], rules: IgnoreRules, limits: WalkLimits): Walked {
  const tracked = new Map(base.map((entry) => [entry.path, entry]));
  const trackedDirs = new Set<string>();
  for (const entry of base) {
    for (let slash = entry.path.indexOf('/'); slash !== -1; slash = entry.path.indexOf('/', slash + 1))
      trackedDirs.add(entry.path.slice(0, slash));
  }
  const walked: Walked = { entries: [], kept: [], ignored: [], findings: [], stopped: false };
  const keepTrackedBelow = (dir: string) =>
    walked.kept.push(...base.filter((entry) => entry.path.startsWith(`${dir}/`)));

  const visit = (dir: string, underIgnored: boolean): void => {
    const full = dir === '' ? root : path.join(root, dir);
    let names: string[];
    try {
      names = readdirSync(full).sort();
    } catch {
      return; // gone or unreadable meanwhile: what is not there is not taken
    }
    const nested = dir !== '' && names.some((name) => gitName.test(name));
    if (nested) {
      walked.findings.push(
        finding(
          'nested_git',
          dir,
          `${dir}/ holds a git folder (.git): another repository inside the change is never taken; delete ${dir}/.git, or commit its files as plain files`,
        ),
      );
      keepTrackedBelow(dir);
      return;
    }
    for (const name of names) {
      if (walked.stopped) return;
      const relative = dir === '' ? name : `${dir}/${name}`;
      if (dir === '' && name === '.git') continue; // the worktree's own pointer (or a plain checkout's folder)
      if (gitName.test(name) || name.includes('\\')) {
        walked.findings.push(
          finding(
            'nested_git',
            relative,
            `${relative}: git refuses this name in a path (it reads as .git on some systems); rename it`,
          ),
        );
        continue;
      }
      const stats = lstatSync(path.join(full, name), { throwIfNoEntry: false });
      if (!stats) continue;
      visitEntry(relative, stats, underIgnored);
    }
  };

  const visitEntry = (relative: string, stats: Stats, underIgnored: boolean): void => {
    const base = tracked.get(relative);
    if (base?.mode === '160000') {
      // A submodule's folder: the commit keeps the gitlink; a repository made in it is a finding (visit says so).
      walked.kept.push(base);
      if (stats.isDirectory() && readdirSafe(path.join(root, relative)).some((name) => gitName.test(name)))
        walked.findings.push(
          finding(
            'nested_git',
            relative,
            `${relative}/ (a submodule's folder) holds a git folder made by the attempt: it is never read; delete ${relative}/.git`,
          ),
        );
      return;
    }
    if (stats.isDirectory()) {
      const ignored = underIgnored || rules.ignores(relative, true);
      if (ignored && !trackedDirs.has(relative)) {
        walked.ignored.push(`${relative}/`);
        return;
      }
      visit(relative, ignored);
      return;
    }
    const kind = stats.isFile() ? 'file' : stats.isSymbolicLink() ? 'link' : undefined;
    if (!kind) {
      walked.findings.push(
        finding(
          'special_file',
          relative,
          `${relative} is ${specialKind(stats)}: only files and links can be committed; delete it`,
        ),
      );
      return;
    }
    // Git itself refuses these as links (a checkout would read a file outside the repository through them).
    if (kind === 'link' && /^\.git(modules|attributes|ignore)$/i.test(relative.slice(relative.lastIndexOf('/') + 1))) {
      walked.findings.push(
        finding(
          'special_file',
          relative,
          `${relative} is a symbolic link: git refuses one by this name; commit a file`,
        ),
      );
      return;
    }
    if (!base && (underIgnored || rules.ignores(relative, false))) {
      walked.ignored.push(relative);
      return;
    }
    if (walked.entries.length >= limits.maxFiles) {
      walked.findings.push(
        finding(
          'change_too_large',
          relative,
          `the worktree holds more than ${limits.maxFiles} files: the change was not taken past ${relative}; delete generated files or split the task`,
        ),
      );
      walked.stopped = true;
      return;
    }
    walked.entries.push({ path: relative, kind });
  };

  visit('', false);
  return walked;
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
