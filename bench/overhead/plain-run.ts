// The baseline: the same steps as one taskloop attempt as a plain script calling git directly (execFile) and
// pytest: worktree add -> edit -> pytest -> add -> commit (with the run trailer) -> worktree remove. The steps are
// exported one by one for the Temporal floor (bench/floor), which runs them as bare activities.
import { execa } from 'execa';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findPythonPaths } from '../../activities/sandbox/python-paths.js';
import { taskWorkflowId } from '../../domain/task-spec.js';
import { git } from '../lib/git.js';
import type { BenchProject } from './projects.js';

/** What the plain script needs of a bench project. */
export type PlainProject = Pick<BenchProject, 'repo' | 'edit' | 'testCommand'>;

/** One plain attempt in `worktree` (bench/overhead/plain-runner.ts runs it in a process of its own). */
export async function runPlainAttempt(project: PlainProject, worktree: string, taskId: string): Promise<void> {
  await addWorktree(project, worktree, taskId);
  await applyEdit(project, worktree);
  await testAndCommit(project, worktree, taskId);
}

export async function addWorktree(project: PlainProject, worktree: string, taskId: string): Promise<void> {
  await git(project.repo, ['worktree', 'add', '-q', '-B', `taskloop/${taskId}`, worktree, 'HEAD']);
}

export async function applyEdit(project: PlainProject, worktree: string): Promise<void> {
  const { edit } = project;
  const file = path.join(worktree, edit.file);
  const source = await readFile(file, 'utf8');
  if (!source.includes(edit.old))
    throw new Error(`plain run: ${edit.file} does not contain ${JSON.stringify(edit.old)}`);
  await writeFile(file, source.replace(edit.old, edit.replacement), 'utf8');
}

/** pytest, then the commit and the worktree's removal. */
export async function testAndCommit(project: PlainProject, worktree: string, taskId: string): Promise<void> {
  const junit = path.join(path.dirname(worktree), `${taskId}-junit.xml`);
  const [command = 'python3', ...args] = project.testCommand ?? ['python3', '-m', 'pytest'];
  const pytest = await execa(command, [...args, '-p', 'no:cacheprovider', `--junitxml=${junit}`], {
    cwd: worktree,
    reject: false,
    env: { PATH: await interpreterFirstPath() },
  });
  if (pytest.exitCode !== 0) throw new Error(`plain run: ${command} exited ${pytest.exitCode} in ${worktree}`);

  await git(worktree, ['add', '-A']);
  const trailer = `Taskloop-Run: ${taskWorkflowId({ project: 'bench', id: taskId })}/1`;
  await git(worktree, ['commit', '-q', '--no-verify', '-m', `bench edit\n\n${trailer}\n`]);
  await git(project.repo, ['worktree', 'remove', '--force', worktree]);
}

/**
 * PATH with the interpreter's own folders first, found as the sandbox finds them (activities/sandbox/python-paths.ts),
 * so both sides start the same python3. On a PATH with a version manager's shim first (pyenv here) the shim alone
 * costs ~85 ms per pytest start: a baseline paying it would flatter taskloop, whose sandbox skips it.
 */
async function interpreterFirstPath(): Promise<string> {
  const { binDirs } = await findPythonPaths();
  return [...binDirs, process.env.PATH ?? ''].join(path.delimiter);
}
