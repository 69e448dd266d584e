// The projects the overhead benchmarks run on: the tiny calc demo and toolz (a real PyPI project, 192 tests),
// each a git repository plus scripted coder turns making one edit that keeps the suite passing.
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fixTurns, makeCalcProject, turn, type ScriptTurn } from '../../test/support/calc-project.js';
import { makeTempDir, writeFiles } from '../../test/support/git-repo.js';
import { commitFolder, git } from '../lib/git.js';

const run = promisify(execFile);

export interface Edit {
  file: string;
  old: string;
  replacement: string;
}

export interface BenchProject {
  label: string;
  repo: string;
  /** `scripted:` model file with the coder's turns (each task starts again at turn 0). */
  scriptFile: string;
  edit: Edit;
  testCommand?: string[];
  cleanup(): Promise<void>;
}

/** The scripted coder's edit, read back from its first turn so the plain script makes exactly the same change. */
function editOf(turns: ScriptTurn[]): Edit {
  const { path: file, old, new: replacement } = (turns[0]?.tool_calls?.[0]?.arguments ?? {}) as Record<string, unknown>;
  if (typeof file !== 'string' || typeof old !== 'string' || typeof replacement !== 'string') {
    throw new Error('the bench coder script must start with a replace_in_file call {path, old, new}');
  }
  return { file, old, replacement };
}

async function withScript(
  repo: string,
  turns: ScriptTurn[],
  label: string,
  extraDirs: string[],
  testCommand?: string[],
): Promise<BenchProject> {
  const dir = await makeTempDir();
  const scriptFile = path.join(dir, 'script.json');
  await writeFile(scriptFile, JSON.stringify({ coder: turns }, null, 2));
  const cleanup = () =>
    Promise.all([repo, dir, ...extraDirs].map((folder) => rm(folder, { recursive: true, force: true }))).then(
      () => undefined,
    );
  return { label, repo, scriptFile, edit: editOf(turns), testCommand, cleanup };
}

/** The demo's calc project (2 tests), optionally with extra files such as a slow or a loud test. */
export async function calcProject(
  extraFiles: Record<string, string> = {},
  testCommand?: string[],
  turns = fixTurns(),
): Promise<BenchProject> {
  const made = await makeCalcProject({ coder: turns });
  if (Object.keys(extraFiles).length > 0) {
    await writeFiles(made.repo, extraFiles);
    await git(made.repo, ['add', '-A']);
    await git(made.repo, ['commit', '-q', '-m', 'bench files']);
  }
  await rm(made.dir, { recursive: true, force: true });
  return withScript(made.repo, turns, 'calc (2 tests)', [], testCommand);
}

export const TOOLZ_VERSION = '1.2.0';

/** toolz's source distribution, fetched once with pip into the cache folder and unpacked there. */
async function ensureToolzSource(cacheDir: string, log: (line: string) => void): Promise<string> {
  const source = path.join(cacheDir, `toolz-${TOOLZ_VERSION}`);
  if ((await readdir(source).catch(() => [])).length > 0) return source;
  await mkdir(cacheDir, { recursive: true });
  log(`fetching toolz ${TOOLZ_VERSION} (source distribution) into ${cacheDir}`);
  const pip = [
    '-m',
    'pip',
    'download',
    '--no-binary',
    ':all:',
    '--no-deps',
    '--quiet',
    '-d',
    cacheDir,
    `toolz==${TOOLZ_VERSION}`,
  ];
  await run('python3', pip).catch((error: unknown) => {
    throw new Error(
      `could not fetch toolz with "python3 ${pip.join(' ')}": ${String(error)}; run it by hand or unpack toolz-${TOOLZ_VERSION} into ${cacheDir}`,
    );
  });
  await run('tar', ['xzf', `toolz-${TOOLZ_VERSION}.tar.gz`], { cwd: cacheDir });
  return source;
}

/** A git repository of toolz; the coder adds a docstring to toolz/utils.py (the suite keeps passing). */
export async function toolzProject(cacheDir: string, log: (line: string) => void): Promise<BenchProject> {
  const source = await ensureToolzSource(cacheDir, log);
  const repo = await makeTempDir();
  await cp(source, repo, { recursive: true });
  await commitFolder(repo);
  const turns = [
    turn('replace_in_file', {
      path: 'toolz/utils.py',
      old: 'def raises(err, lamda):\n',
      new: 'def raises(err, lamda):\n    """True when calling lamda raises err."""\n',
    }),
    turn('finish', { summary: 'documented raises' }),
  ];
  return withScript(repo, turns, `toolz ${TOOLZ_VERSION} (192 tests)`, []);
}
