// Builds a suite's test ids the way the SWE-bench harness does, by running them: for each instance (repository,
// upstream fix commit), the fix's test files run at its parent (with those test files laid over it) and at the fix,
// in the sandbox. FAIL_TO_PASS: fail before, pass after; PASS_TO_PASS: pass both times. Goals default to the fix's
// commit message. Usage: npx tsx scripts/eval/derive-suite.ts evals/starter.sources.yaml evals/starter.yaml
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { parse, stringify } from 'yaml';
import { compactNodeIds } from '../../domain/eval/compact-ids.js';
import { isTestPath } from '../../domain/eval/fix-tests.js';
import { parseSuite } from '../../domain/eval/parse-suite.js';
import type { SuiteInstance } from '../../domain/eval/suite.js';
import type { TestCaseResult } from '../../domain/records.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../activities/sandbox/index.js';
import { runTests, type TestEnvironment } from '../../activities/tests/index.js';
import { environmentCacheDir, ensureEnvironment } from '../../activities/environments/index.js';
import type { EnvironmentSpec } from '../../domain/environment.js';

const git = async (dir: string, args: string[]) =>
  (await execa('git', ['-c', 'core.hooksPath=/dev/null', '-C', dir, ...args], { maxBuffer: 64 << 20 })).stdout;

async function runAt(
  checkout: string,
  sha: string,
  overlay: { ref: string; paths: string[] },
  command: string[],
  env: Record<string, string>,
  environment?: TestEnvironment,
) {
  await git(checkout, ['checkout', '--quiet', '--force', '--detach', sha]);
  await git(checkout, ['clean', '-qfdx']);
  await git(checkout, ['checkout', '--quiet', overlay.ref, '--', ...overlay.paths]);
  const workDir = path.join(os.tmpdir(), 'taskloop-derive');
  const result = await runTests({
    worktreePath: checkout,
    command: [...command, ...overlay.paths.filter(isTestPath)],
    testEnv: env,
    timeoutMs: 600_000,
    secretValues: [],
    artifactDir: path.join(workDir, path.basename(checkout), sha.slice(0, 12)),
    hostId: 'derive',
    sandbox: sandboxPolicyFor(resolveWorkerSandbox({ workDir })),
    maxCases: 50_000,
    ...(environment ? { environment } : {}),
  });
  return new Map(result.cases.map((c: TestCaseResult) => [c.id, c.outcome]));
}

async function derive(
  instance: SuiteInstance,
  suiteDir: string,
  defaults: { testCommand?: string[]; testEnv?: Record<string, string>; environment?: EnvironmentSpec },
) {
  const mirror = instance.mirror ? path.resolve(suiteDir, instance.mirror) : undefined;
  const source = mirror && existsSync(mirror) ? mirror : instance.repo;
  const checkout = await mkdtemp(path.join(os.tmpdir(), `derive-${instance.id}-`));
  try {
    await execa('git', [
      'clone',
      '--quiet',
      '--no-checkout',
      ...(source === mirror ? ['--shared'] : []),
      source,
      checkout,
    ]);
    const fix = (await git(checkout, ['rev-parse', `${instance.fixCommit}^{commit}`])).trim();
    const base = (await git(checkout, ['rev-parse', `${fix}^`])).trim();
    const changed = (
      await git(checkout, ['diff-tree', '--no-commit-id', '--name-only', '--diff-filter=d', '-r', base, fix])
    )
      .split('\n')
      .filter((file) => isTestPath(file) || path.basename(file) === 'conftest.py');
    const overlay = { ref: fix, paths: changed };
    const command = instance.testCommand ?? defaults.testCommand ?? ['python3', '-m', 'pytest'];
    const env = { ...defaults.testEnv, ...instance.testEnv };
    // The instance's environment, keyed at the base as the eval's tasks key it; both runs use it.
    const spec = instance.environment ?? defaults.environment;
    const workDir = path.join(os.tmpdir(), 'taskloop-derive');
    const environment =
      spec &&
      (await ensureEnvironment({
        repo: instance.repo,
        repoPath: checkout,
        baseSha: base,
        spec,
        cacheDir: environmentCacheDir(workDir),
        policy: sandboxPolicyFor(resolveWorkerSandbox({ workDir })),
        hostId: 'derive',
        log: (line) => console.error(`${instance.id}: ${line}`),
      }));
    const before = await runAt(checkout, base, overlay, command, env, environment);
    const after = await runAt(checkout, fix, overlay, command, env, environment);
    const failToPass = [...after].filter(([id, o]) => o === 'passed' && before.get(id) !== 'passed').map(([id]) => id);
    // Written short: a class or file whose every test passes both times is one id (see domain/eval/compact-ids.ts).
    const passToPass = compactNodeIds(
      [...after].filter(([id, o]) => o === 'passed' && before.get(id) === 'passed').map(([id]) => id),
      [...new Set([...after.keys(), ...before.keys()])],
    );
    const goal =
      instance.goal.trim() !== '-' ? instance.goal : (await git(checkout, ['log', '-1', '--format=%B', fix])).trim();
    console.error(
      `${instance.id}: ${failToPass.length} FAIL_TO_PASS, ${passToPass.length} PASS_TO_PASS (base ${base.slice(0, 12)})`,
    );
    if (failToPass.length === 0) throw new Error(`${instance.id}: no test fails at the base and passes at the fix`);
    return { ...instance, fixCommit: fix, goal, failToPass, passToPass };
  } finally {
    await rm(checkout, { recursive: true, force: true });
  }
}

const [sourcesFile, outFile] = process.argv.slice(2);
if (!sourcesFile || !outFile) {
  console.error('usage: npx tsx scripts/eval/derive-suite.ts SOURCES.yaml OUT.yaml [instance-id ...]');
  process.exit(2);
}
const only = new Set(process.argv.slice(4));
const sources = parseSuite(parse(await readFile(sourcesFile, 'utf8')));
if (!sources.success) {
  console.error(sources.issues.map((issue) => `${sourcesFile}: ${issue.field}: ${issue.message}`).join('\n'));
  process.exit(2);
}
const suite = sources.data;
const instances = [];
for (const instance of suite.instances)
  if (only.size === 0 || only.has(instance.id))
    try {
      instances.push(await derive(instance, path.dirname(path.resolve(sourcesFile)), suite.defaults ?? {}));
    } catch (error) {
      // An old commit whose tests no longer run here (a Python or pytest too new for it) is left out, and said so.
      console.error(`left out: ${(error as Error).message}`);
    }
const header = `# yaml-language-server: $schema=../schemas/eval-suite.schema.json\n# Generated by scripts/eval/derive-suite.ts from ${path.basename(sourcesFile)}: test ids found by running each fix's tests at its parent and at the fix.\n`;
await writeFile(outFile, header + stringify({ ...suite, instances }, { lineWidth: 0 }));
console.error(`wrote ${outFile}`);
