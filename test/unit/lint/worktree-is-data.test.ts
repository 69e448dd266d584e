// The worktree is data (docs/security.md): after repository code ran in a worktree, no git of taskloop's has that
// folder as its work tree or starts in it. This scan of activities/ keeps it so: git processes start only in the two
// modules that run git (git-process.ts for repositories, tree-git.ts for an attempt's git folder with no work tree),
// no work tree is ever named, and no git client is opened on a worktree.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';

const activities = path.join(projectRoot, 'activities');

/** The modules allowed to start a git process. */
const gitStarters = new Set(['activities/git/git-process.ts', 'activities/git/tree-git.ts']);

/**
 * Git clients opened on a folder that is (or may be) a worktree, by the name of what they are given. The claim's and
 * the eval's fresh checkouts run git before any repository code ran there, so they open the repository or the clone.
 */
const worktreeNamed = /\b(openGit|openRepo|gitProcess)\(\s*[^),]*\b(worktree\w*|root|cwd)\b/i;
const startsGit = /\b(spawn|spawnSync|execa|execaSync|execFile|execFileSync|exec|execSync)\(\s*\[?\s*['"`]git['"`]/;
const namesWorkTree = /--work-tree|GIT_WORK_TREE|core\.worktree/;
const gone = /\b(openWorktree|openWorktreeSync|explicitGitDirArgs|runInOwnWorktree)\b/;
const simpleGit = /from ['"]simple-git['"]/;

/** Code lines of a source (comment lines left out), numbered from 1. */
function codeLines(text: string): [number, string][] {
  return text
    .split('\n')
    .map((line, index): [number, string] => [index + 1, line])
    .filter(([, line]) => !/^\s*(\/\/|\/\*|\*)/.test(line));
}

/** `file:line: code` for each line of `text` (the source at `file`) that could run git over a worktree. */
export function gitOverWorktree(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [number, line] of codeLines(text)) {
    const hit =
      worktreeNamed.test(line) ||
      namesWorkTree.test(line) ||
      gone.test(line) ||
      simpleGit.test(line) ||
      (startsGit.test(line) && !gitStarters.has(file)) ||
      (/dieWithWorkerArgs\(\s*\[?\s*['"`]git['"`]/.test(line) && !gitStarters.has(file));
    if (hit) found.push(`${file}:${number}: ${line.trim()}`);
  }
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(dir, name));
}

describe('the worktree is data: no git over a worktree in activities/', () => {
  it('finds no git command that could have a worktree as its work tree', () => {
    const found = sources(activities).flatMap((file) =>
      gitOverWorktree(path.relative(projectRoot, file), readFileSync(file, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('catches each shape such a call took before (so the scan above can fail)', () => {
    const probes = [
      'const git = openGit(input.worktreePath).env(remoteEnv);',
      "const git = gitProcess(worktreePath, config, env, ['--git-dir=x']);",
      'return [`--git-dir=${gitDir}`, `--work-tree=${path.resolve(worktreePath)}`];',
      "await runInOwnWorktree(git, input.worktreePath, startedAtMs, ['add', '-A']);",
      "const result = await execa('git', [...args], { cwd: root });",
      "const stdout = await openWorktreeSync(worktreePath).raw(['ls-files', '-co']);",
    ];
    for (const probe of probes)
      expect(gitOverWorktree('activities/coder/probe.ts', `${probe}\n`), probe).toHaveLength(1);
    expect(gitOverWorktree('activities/git/probe.ts', '// openGit(worktreePath) in a comment\n')).toEqual([]);
  });
});
