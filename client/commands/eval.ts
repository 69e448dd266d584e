// `taskloop eval`: runs a suite of real bug fixes per arm (coder model × agent version × learning), verifies every
// instance independently, reports the arms side by side, and with --promote crowns a coder champion by evidence.
import path from 'node:path';
import { planArms, builtinArmModels } from '../../domain/eval/arms.js';
import { MAX_SAMPLES } from '../../domain/samples.js';
import type { ArmResult } from '../../domain/eval/records.js';
import { buildEvalReport } from '../../domain/eval/report.js';
import { selectByTags } from '../../domain/eval/select-tags.js';
import type { Suite } from '../../domain/eval/suite.js';
import { modelSpecPattern } from '../../domain/task-spec.js';
import { stateDir } from '../../platform/paths.js';
import type { EvalArmInput } from '../../workflows/eval-arm.js';
import { SHARED_TASK_QUEUE } from '../../workflows/task-queues.js';
import { intFlag, parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import { evalIdOf, planArmInputs } from '../eval/plan-eval.js';
import { promoteFromEval, readCoderChampion, registryFile } from '../eval/promote.js';
import { formatEvalReport, writeEvalFiles } from '../eval/report-output.js';
import { resolveInstances, type ResolvedInstance } from '../eval/resolve-instances.js';
import { awaitArms, startOrFindArm } from '../eval/run-arms.js';
import { showEvalStatus } from '../eval/status.js';
import { readSuiteFile } from '../eval/suite-file.js';
import { writePredictions } from '../eval/predictions.js';
import { readSweBenchSuite } from '../eval/swe-bench-suite.js';
import { showTests } from '../eval/shown-tests.js';
import { testsSettings, type TestsSetting } from '../../domain/eval/shown-tests.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';
import { chooseCoderVersion } from '../../domain/agent-choice.js';
import { readAgentRegistry } from '../tasks/coder-agent.js';

const help = `Usage: taskloop eval SUITE --model SPEC [--model SPEC]… [--agents V1,V2] [--learning on,off]
                     [--samples 1,3] [--tags T1,T2] [--tests hidden|shown] [--concurrency N] [--max-retries 0-2]
                     [--out DIR] [--json] [--promote]
                     [--task-queue Q]
       taskloop eval status [EVAL_ID] [--json]

Runs every instance of the suite (YAML, see schemas/eval-suite.schema.json; or a SWE-bench-style .jsonl, one
instance a line, for which each arm also writes predictions-<arm>.jsonl for the official harness) once per arm: each combination of
--model, --agents, --learning and --samples is an arm, and each arm is one durable workflow eval-<eval id>-<arm> running the
instances as task workflows. After a task ends, its committed sha (or the base ref when it committed nothing) is
checked out afresh and FAIL_TO_PASS and PASS_TO_PASS run in the sandbox: resolved means all of the first pass and
all of the second still pass. The same command again resumes the same eval (finished instances are not run again).

  --model SPEC        a coder model (repeatable): provider:model, or oracle (each instance's upstream fix) or noop
  --agents LIST       coder agent versions of agents/registry.json (default: the model's: coder-small-text for
                      local:/small models, else the champion; docs/models.md)
  --agent VERSION     one coder version (the same as --agents VERSION)
  --learning LIST     on, off or on,off (default on): off adapts no attempt and makes no skill
  --samples LIST      candidates each attempt draws, e.g. 1,3 (default 1): each after the first in a fresh worktree
                      at a warmer temperature, the first whose tests pass kept; a task's tokens count every draw
  --tags LIST         run only the instances with any of these tags (a suite instance's tags field), e.g. one-line
  --tests SETTING     hidden (default, as SWE-bench: the coder never sees the tests that decide) or shown: each
                      instance starts from its base with the fix's test files committed on it, its test command runs
                      FAIL_TO_PASS and PASS_TO_PASS and its goal names the failing tests; verified the same way
  --concurrency N     instances at once per arm (1-16, default 2)
  --max-retries N     new attempts after a failure (default the suite's defaults.maxRetries, else 1)
  --out DIR           where report.json, resolved.svg and predictions go (default .taskloop/eval/<eval id>)
  --promote           make the best coder version champion when the interval of its lead over the champion's
                      arm excludes 0; otherwise say why and leave the registry as it is
  --json              print the report as JSON

Exit codes: 0 the eval ran (whatever it resolved), 1 it could not finish, 2 a bad suite or flag (nothing started).`;

const options = {
  model: { type: 'string', multiple: true },
  agents: { type: 'string' },
  agent: { type: 'string' },
  learning: { type: 'string' },
  samples: { type: 'string' },
  tags: { type: 'string' },
  tests: { type: 'string' },
  concurrency: { type: 'string' },
  'max-retries': { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  promote: { type: 'boolean' },
  'task-queue': { type: 'string' },
} as const;

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);

type EvalFlags = ReturnType<typeof parseFlags<typeof options>>['values'];

/** What the flags and the suite file ask for, checked before anything starts. */
interface EvalPlan {
  suiteFile: string;
  sweBench: boolean;
  suite: Suite;
  instances: ResolvedInstance[];
  inputs: EvalArmInput[];
  evalId: string;
  evalDir: string;
  maxRetries: number;
  registry: string;
  /** The registry's coder champion when the eval was planned. */
  champion: string;
  tests: TestsSetting;
}

export const evalCommand: Command = {
  summary: 'measure the loop on a suite of real bug fixes per model, agent and learning; --promote crowns a champion',
  help,
  async run(argv) {
    if (argv[0] === 'status') return showEvalStatus(argv.slice(1));
    const { values, positionals } = parseFlags('eval', argv, options, true);
    if (positionals.length !== 1 || !positionals[0])
      throw new UsageError(
        `taskloop eval: expected one suite file, got ${positionals.length}; e.g. taskloop eval evals/tiny.yaml --model oracle`,
      );
    const plan = await planEval(positionals[0], values);
    const taskQueue = values['task-queue'] ?? process.env.TASKLOOP_TASK_QUEUE ?? SHARED_TASK_QUEUE;
    const json = values.json ?? false;
    const say = (line: string) => (json ? console.error(line) : console.log(line));

    return withTaskClient(async ({ client }) => {
      const handles = [];
      for (const input of plan.inputs) {
        const { handle, started } = await startOrFindArm(client, input, taskQueue);
        say(
          `${started ? 'started' : 'resumed'} ${handle.workflowId}: ${input.arm.label} on ${input.instances.length} instances`,
        );
        handles.push(handle);
      }
      const results = await awaitArms(handles, say);
      await reportEval(results, plan, values);
      return 0;
    });
  },
};

/** The arms' model specs, learning settings and agent versions, each refused with the fix when it is not one. */
async function parseArmFlags(values: EvalFlags, registry: string) {
  const models = values.model ?? [];
  if (models.length === 0)
    throw new UsageError('taskloop eval: --model is required; e.g. --model oracle --model openai:gpt-4o');
  for (const model of models)
    if (!(builtinArmModels as readonly string[]).includes(model) && !modelSpecPattern.test(model))
      throw new UsageError(
        `taskloop eval: --model ${JSON.stringify(model)} is not a model spec; use provider:model (e.g. openai:gpt-4o), oracle or noop`,
      );
  const learning = (list(values.learning) ?? ['on']).map((value) => {
    if (value !== 'on' && value !== 'off')
      throw new UsageError(`taskloop eval: --learning takes on, off or on,off; got ${JSON.stringify(values.learning)}`);
    return value === 'on';
  });
  const samples = (list(values.samples) ?? ['1']).map((value) => {
    const count = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!(count >= 1 && count <= MAX_SAMPLES))
      throw new UsageError(
        `taskloop eval: --samples takes whole numbers from 1 to ${MAX_SAMPLES}, e.g. 1,3; got ${JSON.stringify(values.samples)}`,
      );
    return count;
  });
  if (values.agent !== undefined && values.agents !== undefined)
    throw new UsageError(
      'taskloop eval: --agent VERSION and --agents LIST both name the coder versions; pass one of them',
    );
  const agents = list(values.agents ?? values.agent);
  if (agents || values.promote) {
    const { versions } = await readCoderChampion(registry);
    for (const agent of agents ?? [])
      if (!versions.includes(agent))
        throw new UsageError(
          `taskloop eval: --agents names ${JSON.stringify(agent)}, which ${registry} does not have; known coder versions: ${versions.join(', ')}`,
        );
  }
  return { models, learning, agents, samples };
}

/** Reads the suite and plans every arm's workflow input; the eval id names the suite, the arms and the retries. */
async function planEval(suitePath: string, values: EvalFlags): Promise<EvalPlan> {
  const registry = registryFile();
  const { models, learning, agents, samples } = await parseArmFlags(values, registry);
  const concurrency = intFlag('eval', 'concurrency', values.concurrency, 2, 1, 16);
  const suiteFile = path.resolve(suitePath);
  const cacheDir = path.join(stateDir(), 'eval', 'repos');
  // A .jsonl file is SWE-bench-style instances; each arm then also writes the harness's predictions file.
  const sweBench = /\.jsonl$/i.test(suiteFile);
  const { suite: whole, text } = sweBench
    ? await readSweBenchSuite(suiteFile, { cacheDir })
    : await readSuiteFile(suiteFile);
  const tags = list(values.tags) ?? [];
  const selected = selectByTags(whole, tags);
  if (!selected.success) throw new UsageError(`taskloop eval: --tags ${values.tags}: ${selected.error}`);
  const suite = selected.data;
  const maxRetries = intFlag('eval', 'max-retries', values['max-retries'], suite.defaults?.maxRetries ?? 1, 0, 2);
  const agentRegistry = await readAgentRegistry('eval');
  const modelDefault = (model: string) => {
    const chosen = chooseCoderVersion(agentRegistry, model, {});
    return chosen.success ? chosen.data : undefined;
  };
  const flagName = values.agent === undefined ? '--agents' : '--agent';
  const arms = planArms({
    models,
    agents: agents ?? [undefined],
    learning,
    samples,
    defaultAgentOf: (model) => modelDefault(model)?.version,
  });
  // A part of the suite is an eval of its own; without --tags the id is the one it always was (runs resume).
  const tests = testsFlag(values.tests);
  const extra = `retries=${maxRetries}${tags.length > 0 ? ` tags=${tags}` : ''}${tests === 'shown' ? ' tests=shown' : ''}`;
  const evalId = evalIdOf(suite.name, text, arms, extra);
  const evalDir = path.join(stateDir(), 'eval', evalId);
  const resolved = await resolveInstances(suite, {
    suiteDir: path.dirname(suiteFile),
    cacheDir,
    scriptsDir: path.join(evalDir, 'scripts'),
  });
  const instances = tests === 'shown' ? await Promise.all(resolved.map(showTests)) : resolved;
  const inputs = await planArmInputs({
    evalId,
    suiteName: suite.name,
    arms,
    instances,
    concurrency,
    maxRetries,
    scriptsDir: path.join(evalDir, 'scripts'),
    agentWhy: (arm) => (arm.agent === undefined ? undefined : agents ? flagName : modelDefault(arm.model)?.why),
  });
  // The champion as the arms start (a --promote at the end may change it): the version unpinned arms run.
  const { champion } = await readCoderChampion(registry);
  return { suiteFile, sweBench, suite, instances, inputs, evalId, evalDir, maxRetries, registry, tests, champion };
}

function testsFlag(value: string | undefined): TestsSetting {
  if (value === undefined) return 'hidden';
  const setting = testsSettings.find((name) => name === value);
  if (setting) return setting;
  throw new UsageError(`taskloop eval: --tests must be hidden or shown, got ${JSON.stringify(value)}`);
}

/** The report (and with --promote the champion's decision) written to files and printed as text or JSON. */
async function reportEval(results: ArmResult[], plan: EvalPlan, values: EvalFlags): Promise<void> {
  const built = buildEvalReport(results, undefined, plan.maxRetries + 1);
  const report = plan.tests === 'shown' ? { ...built, tests: 'shown' as const } : built;
  const promotion = values.promote
    ? await promoteFromEval(results, {
        file: plan.registry,
        evalId: plan.evalId,
        suite: plan.suite.name,
        now: new Date().toISOString(),
        seed: report.seed,
      })
    : undefined;
  const out = values.out ?? plan.evalDir;
  const files = await writeEvalFiles({ ...report, ...(promotion ? { promotion } : {}) }, out);
  const predictions = plan.sweBench ? await writePredictions(results, plan.instances, out, plan.champion) : [];
  if (values.json) {
    const written = { ...files, ...(plan.sweBench ? { predictions } : {}) };
    console.log(JSON.stringify({ ...report, ...(promotion ? { promotion } : {}), files: written }, null, 2));
    return;
  }
  console.log(formatEvalReport(report));
  if (promotion) console.log(`\n${promotion.promote ? 'promoted' : 'not promoted'}: ${promotion.reason}`);
  console.log(`\nwrote ${files.json} and ${files.svg}`);
  for (const written of predictions) console.log(`wrote ${written} (SWE-bench predictions)`);
}
