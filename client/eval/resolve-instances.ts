// Turns a suite's instances into what the tasks and the verification need: a local repository (URLs are cloned
// once into the eval cache, from the mirror when there is one), the base commit, the tests, the test files to lay
// over the checkout and the oracle's scripted turns. Every problem is a usage error; nothing has started yet.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isTestPath, testsChangedByDiff } from '../../domain/eval/fix-tests.js';
import type { Suite, SuiteInstance } from '../../domain/eval/suite.js';
import type { EnvironmentSpec } from '../../domain/environment.js';
import { isRepoUrl, redactUrls } from '../../domain/repo-url.js';
import { UsageError } from '../cli-errors.js';
import { git } from './git.js';

export interface ResolvedInstance {
  id: string;
  repo: string;
  baseSha: string;
  goal: string;
  failToPass: string[];
  passToPass: string[];
  testCommand: string[];
  testEnv: Record<string, string>;
  testTimeoutMs: number;
  environment?: EnvironmentSpec;
  allowedPaths: string[];
  maxSteps?: number;
  overlay?: { ref: string; paths: string[] };
  /** Absolute path of the oracle's scripted turns, when there is an oracle. */
  oracle?: string;
}

const DEFAULT_COMMAND = ['python3', '-m', 'pytest'];

/** A file pytest reads as tests or fixtures: laid over the checkout from the fix, never written by the oracle. */
const isTestSupport = (file: string) =>
  isTestPath(file) || path.basename(file) === 'conftest.py' || /(^|\/)tests?\//.test(file);

export async function resolveInstances(
  suite: Suite,
  options: { suiteDir: string; cacheDir: string; scriptsDir: string },
): Promise<ResolvedInstance[]> {
  const resolved: ResolvedInstance[] = [];
  for (const [index, instance] of suite.instances.entries())
    resolved.push(await resolveOne(suite, instance, `instances[${index}]`, options));
  return resolved;
}

async function resolveOne(
  suite: Suite,
  instance: SuiteInstance,
  at: string,
  options: { suiteDir: string; cacheDir: string; scriptsDir: string },
): Promise<ResolvedInstance> {
  const repo = await localRepository(instance, at, options);
  const environment = instance.environment ?? suite.defaults?.environment;
  const common = {
    ...(environment === undefined ? {} : { environment }),
    id: instance.id,
    repo,
    goal: instance.goal,
    testCommand: instance.testCommand ?? suite.defaults?.testCommand ?? DEFAULT_COMMAND,
    testEnv: { ...suite.defaults?.testEnv, ...instance.testEnv },
    testTimeoutMs: suite.defaults?.testTimeoutMs ?? 600_000,
    allowedPaths: instance.hints?.allowedPaths ?? [],
    ...(instance.hints?.maxSteps === undefined ? {} : { maxSteps: instance.hints.maxSteps }),
    ...(instance.oracle === undefined ? {} : { oracle: path.resolve(options.suiteDir, instance.oracle) }),
  };
  if (instance.fixCommit === undefined) {
    const baseSha = await commitOf(repo, instance.baseRef ?? 'HEAD', `${at}.baseRef`);
    return { ...common, baseSha, failToPass: instance.failToPass ?? [], passToPass: instance.passToPass ?? [] };
  }
  const fix = await commitOf(repo, instance.fixCommit, `${at}.fixCommit`);
  const baseSha = await commitOf(repo, `${fix}^`, `${at}.fixCommit`);
  const changed = (await git(repo, ['diff-tree', '--no-commit-id', '--name-status', '-r', baseSha, fix])) ?? '';
  const entries = changed
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [status = '', file = ''] = line.split('\t');
      return { status, file };
    });
  const tests = entries.filter((entry) => isTestSupport(entry.file));
  if (!tests.some((entry) => isTestPath(entry.file)))
    throw new UsageError(
      `${at}.fixCommit: commit ${instance.fixCommit} adds or changes no test file (it changes ${entries.map((e) => e.file).join(', ') || 'nothing'}); fix: pick the upstream commit that adds the regression test, or give baseRef and failToPass`,
    );
  const diff = (await git(repo, ['show', '--format=', '-W', fix, '--', ...tests.map((e) => e.file)])) ?? '';
  const failToPass = instance.failToPass ?? testsChangedByDiff(diff);
  if (failToPass.length === 0)
    throw new UsageError(
      `${at}.fixCommit: commit ${instance.fixCommit} changes test files but no test function in them; fix: list failToPass`,
    );
  const overlay = { ref: fix, paths: tests.filter((e) => e.status !== 'D').map((e) => e.file) };
  const oracle = common.oracle ?? (await writeOracle(repo, fix, baseSha, entries, instance.id, options.scriptsDir));
  return { ...common, baseSha, failToPass, passToPass: instance.passToPass ?? [], overlay, oracle };
}

/** Scripted coder turns that apply the fix's non-test changes (whole files as they are at the fix), then finish. */
async function writeOracle(
  repo: string,
  fix: string,
  base: string,
  entries: { status: string; file: string }[],
  id: string,
  scriptsDir: string,
): Promise<string> {
  const turns: unknown[] = [];
  for (const { status, file } of entries.filter((e) => !isTestSupport(e.file))) {
    if (status === 'D') turns.push({ tool_calls: [{ name: 'delete_file', arguments: { path: file } }] });
    else {
      const content = await git(repo, ['show', `${fix}:${file}`]);
      if (content === undefined) throw new UsageError(`oracle of ${id}: cannot read ${file} at ${fix}`);
      turns.push({ tool_calls: [{ name: 'write_file', arguments: { path: file, content: `${content}\n` } }] });
    }
  }
  turns.push({
    tool_calls: [
      { name: 'finish', arguments: { summary: `applied upstream fix ${fix.slice(0, 12)} onto ${base.slice(0, 12)}` } },
    ],
  });
  await mkdir(scriptsDir, { recursive: true });
  const file = path.join(scriptsDir, `oracle-${id}.json`);
  await writeFile(file, `${JSON.stringify({ coder: turns }, null, 2)}\n`);
  return file;
}

async function commitOf(repo: string, ref: string, field: string): Promise<string> {
  const sha = (await git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]))?.trim();
  if (!sha)
    throw new UsageError(
      `${field}: ${JSON.stringify(ref)} is not a commit of ${redactUrls(repo)}; fix: copy a commit id from its git log`,
    );
  return sha;
}

/** The instance's repository on this machine: a path as it is, a URL cloned (bare, once) into the eval cache. */
export async function localRepository(
  instance: SuiteInstance,
  at: string,
  options: { suiteDir: string; cacheDir: string },
): Promise<string> {
  if (!isRepoUrl(instance.repo)) {
    const repo = path.resolve(options.suiteDir, instance.repo);
    if ((await git(repo, ['rev-parse', '--git-dir'])) === undefined)
      throw new UsageError(`${at}.repo: ${repo} is not a git repository; fix: point repo at a clone, or give its URL`);
    return repo;
  }
  const hash = createHash('sha256').update(instance.repo).digest('hex').slice(0, 10);
  const name = path
    .basename(redactUrls(instance.repo))
    .replace(/\.git$/, '')
    .replace(/[^A-Za-z0-9._-]/g, '_');
  const clone = path.join(options.cacheDir, `${name}-${hash}.git`);
  if (existsSync(path.join(clone, 'HEAD'))) return clone;
  const mirror = instance.mirror === undefined ? undefined : path.resolve(options.suiteDir, instance.mirror);
  const source = mirror && existsSync(mirror) ? mirror : instance.repo;
  await mkdir(options.cacheDir, { recursive: true });
  if ((await git(options.cacheDir, ['clone', '--bare', '--quiet', source, clone])) === undefined)
    throw new UsageError(
      `${at}.repo: cannot clone ${redactUrls(source)}; fix: check the URL and the network, or set mirror to a local copy`,
    );
  return clone;
}
