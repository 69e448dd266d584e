// The baseline: the same git and pytest steps as one taskloop attempt, as a plain script (no Temporal, no checks).
import { execa } from 'execa';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { simpleGit } from 'simple-git';
import { taskWorkflowId } from '../../domain/task-spec.js';
import { fixTurns, makeCalcProject } from '../../test/support/calc-project.js';

const identity = ['user.name=taskloop', 'user.email=taskloop@localhost', 'commit.gpgsign=false'];

/** The scripted coder's edit, taken from the same turns the taskloop run uses. */
function scriptedEdit(): { file: string; old: string; replacement: string } {
  const args = fixTurns()[0]?.tool_calls?.[0]?.arguments ?? {};
  const { path: file, old, new: replacement } = args as Record<string, unknown>;
  if (typeof file !== 'string' || typeof old !== 'string' || typeof replacement !== 'string') {
    throw new Error('fixTurns() no longer starts with a replace_in_file call {path, old, new}; update bench/overhead/plain-run.ts');
  }
  return { file, old, replacement };
}

/** worktree add -> edit -> pytest -> add -> commit (with the run trailer) -> worktree remove, timed; the project is made untimed. */
export async function timePlainRun(workDir: string, taskId: string): Promise<number> {
  const project = await makeCalcProject({ coder: fixTurns() });
  try {
    const started = performance.now();
    await runPlainAttempt(project.repo, path.join(workDir, 'plain', taskId), taskId);
    return performance.now() - started;
  } finally {
    await Promise.all([project.repo, project.dir].map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

async function runPlainAttempt(repo: string, worktree: string, taskId: string): Promise<void> {
  const git = simpleGit({ baseDir: repo, config: identity });
  await git.raw(['worktree', 'add', '-B', `taskloop/${taskId}`, worktree, 'HEAD']);

  const edit = scriptedEdit();
  const file = path.join(worktree, edit.file);
  const source = await readFile(file, 'utf8');
  if (!source.includes(edit.old)) throw new Error(`plain run: ${edit.file} does not contain ${JSON.stringify(edit.old)}`);
  await writeFile(file, source.replace(edit.old, edit.replacement), 'utf8');

  const junit = path.join(path.dirname(worktree), `${taskId}-junit.xml`);
  const pytest = await execa('python3', ['-m', 'pytest', '-p', 'no:cacheprovider', `--junitxml=${junit}`], { cwd: worktree, reject: false });
  if (pytest.exitCode !== 0) throw new Error(`plain run: pytest exited ${pytest.exitCode} in ${worktree}:\n${pytest.stdout}\n${pytest.stderr}`);

  const tree = simpleGit({ baseDir: worktree, config: identity });
  await tree.raw(['add', '-A']);
  const trailer = `Taskloop-Run: ${taskWorkflowId({ project: 'bench', id: taskId })}/1`;
  await tree.raw(['commit', '--no-verify', '-m', `Fix add in calc.py\n\n${trailer}\n`]);
  await git.raw(['worktree', 'remove', '--force', worktree]);
}
