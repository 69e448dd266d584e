// .gitignore rules matched without git. The snapshot of a worktree (snapshot-tree.ts) may not run git over the
// worktree, so it reads the rules itself: from the base commit's `.gitignore` files (the trusted version, read from
// the object store) and the repository's `info/exclude`, never from the worktree's copies, which repository code may
// have rewritten. A `.gitignore` the attempt changes is committed like any other file and reviewed in the diff.
import picomatch from 'picomatch';

/** One rule line of a `.gitignore` (in `base`, '' for the root), as git reads it. */
interface Rule {
  base: string;
  negate: boolean;
  dirOnly: boolean;
  /** A pattern with a slash before its end matches the path below `base`; otherwise the name at any depth. */
  anchored: boolean;
  match: (path: string) => boolean;
}

// Git's glob: `*` and `?` never match a slash, `**` does, brackets are classes; no braces, extglobs or negation.
const globOptions = { dot: true, nobrace: true, noextglob: true, nonegate: true, noquantifiers: true };

/** The rules of one ignore file whose patterns apply below `base` ('' for the root). */
export function parseIgnoreFile(base: string, text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split('\n')) {
    let line = raw.replace(/\r$/, '');
    // Trailing spaces are dropped unless escaped; blank lines and comments match nothing.
    line = line.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    if (line === '') continue;
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    rules.push({ base, negate, dirOnly, anchored, match: picomatch(line, globOptions) });
  }
  return rules;
}

/** Ignore rules in git's order of precedence, lowest first: the last rule that matches a path decides. */
export class IgnoreRules {
  constructor(private readonly rules: Rule[]) {}

  /** True when `path` (repository-relative, '/'-separated) is ignored by the rules themselves (see the walk for parents). */
  ignores(path: string, isDirectory: boolean): boolean {
    let ignored = false;
    const name = path.slice(path.lastIndexOf('/') + 1);
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDirectory) continue;
      if (rule.base !== '' && !path.startsWith(`${rule.base}/`)) continue;
      const below = rule.base === '' ? path : path.slice(rule.base.length + 1);
      if (rule.anchored ? rule.match(below) : rule.match(name)) ignored = !rule.negate;
    }
    return ignored;
  }
}

/**
 * The rules of `info/exclude` (root) and each `.gitignore` file (`files`: its repository path and text), ordered as git
 * weighs them: `info/exclude` lowest, then shallower `.gitignore` files before deeper ones.
 */
export function ignoreRulesOf(exclude: string, files: { path: string; text: string }[]): IgnoreRules {
  const depth = (file: string) => file.split('/').length;
  const ordered = [...files].sort((a, b) => depth(a.path) - depth(b.path) || a.path.localeCompare(b.path));
  const rules = [...parseIgnoreFile('', exclude)];
  for (const file of ordered) {
    const slash = file.path.lastIndexOf('/');
    rules.push(...parseIgnoreFile(slash === -1 ? '' : file.path.slice(0, slash), file.text));
  }
  return new IgnoreRules(rules);
}
