// The peer in the same table: mini-swe-agent (PyPI 2.4.6, its swebench configs, its local bash environment) run on
// the same suite (YAML or SWE-bench JSONL), the same OpenAI-compatible model server and step limit as a taskloop eval
// arm; its change is verified by the eval's own independent check (a fresh clone, the fix's tests laid over, the
// sandboxed runner) and written as the same report rows, beside the taskloop arms of a report.json when given.
//
//   npx tsx bench/peer/mini-swe-agent.ts SUITE --python VENV/bin/python --base-url http://127.0.0.1:8080/v1
//     --model qwen2.5-coder-0.5b [--max-steps 8] [--max-tokens 2048] [--mode tool|text] [--temperature 0] [--with REPORT.json]
//     [--only ID,ID] [--tests hidden|shown] [--out DIR]
//
// mini-swe-agent runs its commands unsandboxed in a throwaway clone, as its local environment does for any user;
// taskloop's side (the diff, the commit, the verification) treats that clone as data and runs the tests in the sandbox.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { verifyInstance } from '../../activities/eval/verify-instance.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../activities/sandbox/index.js';
import { commitPatches } from '../../client/eval/patch-commit.js';
import { formatEvalReport, writeEvalFiles } from '../../client/eval/report-output.js';
import { resolveInstances, type ResolvedInstance } from '../../client/eval/resolve-instances.js';
import { showTests } from '../../client/eval/shown-tests.js';
import { readSuiteFile } from '../../client/eval/suite-file.js';
import { readSweBenchSuite } from '../../client/eval/swe-bench-suite.js';
import type { ArmResult, InstanceRun } from '../../domain/eval/records.js';
import { buildEvalReport, type EvalReport } from '../../domain/eval/report.js';
import { predictionsJsonl } from '../../domain/eval/swe-bench.js';
import { stateDir } from '../../platform/paths.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    python: { type: 'string' },
    'base-url': { type: 'string' },
    model: { type: 'string' },
    'max-steps': { type: 'string', default: '8' },
    mode: { type: 'string', default: 'tool' },
    temperature: { type: 'string', default: '0' },
    // The same output limit as the taskloop arm it is compared with (coder-1: 2048; coder-small: 1024): without one
    // a small model's reply can run to the end of the context window.
    'max-tokens': { type: 'string', default: '2048' },
    with: { type: 'string' },
    only: { type: 'string' },
    // shown: the same instances as `taskloop eval --tests shown` (the fix's tests committed on the base, named by the goal).
    tests: { type: 'string', default: 'hidden' },
    out: { type: 'string' },
  },
});
const suiteFile = positionals[0];
const okTests = ['hidden', 'shown'].includes(values.tests);
if (
  !suiteFile ||
  !values.python ||
  !values['base-url'] ||
  !values.model ||
  !['tool', 'text'].includes(values.mode) ||
  !okTests
) {
  console.error(
    'usage: npx tsx bench/peer/mini-swe-agent.ts SUITE --python VENV/bin/python --base-url URL --model NAME [--max-steps N] [--mode tool|text] [--with REPORT.json] [--only IDS] [--tests hidden|shown] [--out DIR]',
  );
  process.exit(2);
}
const maxSteps = Number(values['max-steps']);

const safe = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'core.attributesFile=/dev/null'];
const git = async (dir: string, args: string[]) =>
  (
    await execa('git', [...safe, '-C', dir, ...args], {
      env: { GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
      stripFinalNewline: false,
      maxBuffer: 64 << 20,
    })
  ).stdout;

/** What mini-swe-agent changed in its clone, as a diff against the base (new files included, git's own folder not). */
async function changeOf(checkout: string, base: string): Promise<string> {
  await git(checkout, ['add', '-A']);
  return git(checkout, [
    'diff',
    '--cached',
    '--binary',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-renames',
    base,
  ]);
}

async function runPeer(instance: ResolvedInstance, workDir: string): Promise<{ run: InstanceRun; patch: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `peer-${instance.id}-`));
  const checkout = path.join(dir, 'repo');
  try {
    await execa('git', ['clone', '--quiet', '--shared', '--no-checkout', instance.repo, checkout]);
    await git(checkout, ['checkout', '--quiet', '--detach', instance.baseSha]);
    const args = {
      task: instance.goal,
      cwd: checkout,
      model: `openai/${values.model}`,
      base_url: values['base-url'],
      step_limit: maxSteps,
      mode: values.mode,
      temperature: Number(values.temperature),
      max_tokens: Number(values['max-tokens']),
      trajectory: path.join(workDir, 'trajectories', `${instance.id}.traj.json`),
      out: path.join(dir, 'result.json'),
    };
    await mkdir(path.dirname(args.trajectory), { recursive: true });
    await writeFile(path.join(dir, 'args.json'), JSON.stringify(args));
    const started = Date.now();
    const python = await execa(values.python as string, [path.join(here, 'run_mini.py'), path.join(dir, 'args.json')], {
      reject: false,
      env: {
        ...process.env,
        LITELLM_LOCAL_MODEL_COST_MAP: 'True',
        MSWEA_COST_TRACKING: 'ignore_errors',
        MSWEA_CONFIGURED: 'true',
      },
      all: true,
    });
    const wallTimeMs = Date.now() - started;
    const result = JSON.parse(await readFile(args.out, 'utf8').catch(() => '{}')) as Record<string, number | string>;
    if (python.exitCode !== 0)
      console.error(`${instance.id}: run_mini.py exited ${python.exitCode}: ${python.all?.slice(-2000)}`);
    const patch = await changeOf(checkout, instance.baseSha);
    const made =
      patch.trim() === ''
        ? undefined
        : await commitPatches({
            repo: instance.repo,
            base: instance.baseSha,
            patches: [{ name: 'change', diff: patch }],
            ref: `refs/taskloop/peer/${instance.id}`,
            message: `mini-swe-agent's change for ${instance.id}`,
          });
    const verification = await verifyInstance(
      {
        runName: `peer-${instance.id}`,
        repo: instance.repo,
        baseRef: instance.baseSha,
        ...(made?.ok ? { commitSha: made.sha } : {}),
        failToPass: instance.failToPass,
        passToPass: instance.passToPass,
        testCommand: instance.testCommand,
        testEnv: instance.testEnv,
        testTimeoutMs: instance.testTimeoutMs,
        ...(instance.overlay ? { overlay: instance.overlay } : {}),
      },
      { workDir, hostId: 'peer', sandbox: sandboxPolicyFor(resolveWorkerSandbox({ workDir })) },
    );
    const exit = String(result.exit_status ?? `exit ${python.exitCode}`);
    const run: InstanceRun = {
      instanceId: instance.id,
      workflowId: `peer-${instance.id}`,
      taskStatus: made?.ok ? 'COMPLETED' : 'FAILED',
      attempts: 1,
      verification,
      modelCalls: Number(result.model_calls ?? 0),
      inputTokens: Number(result.prompt_tokens ?? 0),
      outputTokens: Number(result.completion_tokens ?? 0),
      costUsd: 0,
      wallTimeMs,
      malformedReplies: Number(result.format_errors ?? 0),
      ...(verification.resolved ? {} : { failureClass: made?.ok ? 'verification_failed' : `peer:${exit}` }),
      agent: `mini-swe-agent-2.4.6/${values.mode}`,
    };
    console.error(
      `${instance.id}: ${exit}, ${run.modelCalls} calls, ${run.inputTokens}+${run.outputTokens} tokens (${Number(result.cached_tokens ?? 0)} cached), ${(wallTimeMs / 1000).toFixed(0)} s, ${verification.resolved ? 'resolved' : `unresolved (${verification.reason ?? run.failureClass})`}`,
    );
    return { run, patch: patch.trim() === '' ? '' : patch };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const cacheDir = path.join(stateDir(), 'eval', 'repos');
const file = path.resolve(suiteFile);
const { suite } = /\.jsonl$/i.test(file) ? await readSweBenchSuite(file, { cacheDir }) : await readSuiteFile(file);
const workDir = path.resolve(values.out ?? path.join(stateDir(), 'eval', `peer-${suite.name}`));
const only = values.only?.split(',');
const resolved = (
  await resolveInstances(suite, { suiteDir: path.dirname(file), cacheDir, scriptsDir: path.join(workDir, 'scripts') })
).filter((instance) => !only || only.includes(instance.id));
const instances = values.tests === 'shown' ? await Promise.all(resolved.map(showTests)) : resolved;
const runs: InstanceRun[] = [];
const patches: { instance_id: string; model_name_or_path: string; model_patch: string }[] = [];
for (const instance of instances) {
  const { run, patch } = await runPeer(instance, workDir);
  runs.push(run);
  patches.push({
    instance_id: instance.id,
    model_name_or_path: `mini-swe-agent-2.4.6__${values.model}`,
    model_patch: patch,
  });
}
const peer: ArmResult = {
  evalId: `peer-${suite.name}`,
  suite: suite.name,
  arm: {
    id: 'peer',
    label: `mini-swe-agent 2.4.6 (${values.mode}) openai:${values.model} steps=${maxSteps}${values.tests === 'shown' ? ' tests shown' : ''}`,
    model: `openai:${values.model}`,
    learning: false,
  },
  runs,
  total: runs.length,
  finished: true,
};
// The taskloop arms of an eval of the same suite, rebuilt from its report.json, so the peer is paired with each.
const others: ArmResult[] = [];
if (values.with) {
  const report = JSON.parse(await readFile(values.with, 'utf8')) as EvalReport;
  for (const summary of report.arms)
    others.push({
      evalId: report.evalId,
      suite: report.suite,
      arm: summary.arm,
      runs: report.runs[summary.arm.id] ?? [],
      total: summary.instances,
      finished: true,
    });
}
const report = buildEvalReport([...others, peer]);
console.log(formatEvalReport(report));
const files = await writeEvalFiles(report, workDir);
await writeFile(path.join(workDir, 'predictions-peer.jsonl'), predictionsJsonl(patches));
console.log(`\nwrote ${files.json}, ${files.svg} and ${path.join(workDir, 'predictions-peer.jsonl')}`);
