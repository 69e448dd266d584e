// Real temp git repositories and scripted model files for the coder tests.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { emptyTelemetry } from '../../../../domain/telemetry.js';
import type { ToolContext } from '../../../../activities/coder/tools/types.js';

export interface TempRepo {
  /** Folder holding the repo, the script and anything "outside" the worktree. */
  base: string;
  repo: string;
  artifacts: string;
  cleanup(): Promise<void>;
}

/** Creates `<base>/repo` as a git repository with `files` committed. */
export async function createTempRepo(files: Record<string, string>): Promise<TempRepo> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
  const repo = path.join(base, 'repo');
  await mkdir(repo);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repo, name)), { recursive: true });
    await writeFile(path.join(repo, name), content);
  }
  const git = (...args: string[]) => execa('git', args, { cwd: repo });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'seed', '--allow-empty');
  return {
    base,
    repo,
    artifacts: path.join(base, 'artifacts'),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

type ScriptTurn = {
  content?: string;
  tool_calls?: { name: string; arguments?: Record<string, unknown> }[];
  usage?: { input_tokens: number; output_tokens: number };
};

/** Writes a scripted model file and returns its path. */
export async function writeScript(
  dir: string,
  script: Partial<Record<'coder' | 'reviewer' | 'judge' | 'skillWriter', ScriptTurn[]>> | string,
  name = 'script.json',
): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, typeof script === 'string' ? script : JSON.stringify(script, null, 2));
  return file;
}

/** One scripted turn calling a single tool. */
export function call(name: string, args: Record<string, unknown>, content = ''): ScriptTurn {
  return { content, tool_calls: [{ name, arguments: args }] };
}

/** A fresh tool context rooted at `root`. */
export function createToolContext(root: string): ToolContext {
  return { root, telemetry: emptyTelemetry(), failedReplacePaths: new Set(), changedFiles: new Set() };
}
