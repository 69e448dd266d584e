// An eval's plan: its id, its arms and, per arm, every instance as a validated task spec plus what verification
// checks. Built before anything starts; a bad model, agent or missing oracle is a usage error.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ArmSpec } from '../../domain/eval/records.js';
import { parseTaskSpec } from '../../domain/task-spec.js';
import type { EvalArmInput } from '../../workflows/eval-arm.js';
import { UsageError } from '../cli-errors.js';
import type { ResolvedInstance } from './resolve-instances.js';

/** The same suite text and arms give the same id, so running the command again resumes the same eval. */
export function evalIdOf(suiteName: string, suiteText: string, arms: ArmSpec[], extra: string): string {
  const hash = createHash('sha256').update(suiteText).update(JSON.stringify(arms)).update(extra).digest('hex');
  return `${suiteName}-${hash.slice(0, 8)}`;
}

/** The coder model an arm gives one instance; `oracle` and `noop` become scripted files. */
function coderModelFor(arm: ArmSpec, instance: ResolvedInstance, noopScript: string): string {
  if (arm.model === 'noop') return `scripted:${noopScript}`;
  if (arm.model !== 'oracle') return arm.model;
  if (!instance.oracle)
    throw new UsageError(
      `taskloop eval: --model oracle needs an oracle for instance ${instance.id}; fix: give it fixCommit or oracle (scripted turns)`,
    );
  return `scripted:${instance.oracle}`;
}

export async function planArmInputs(input: {
  evalId: string;
  suiteName: string;
  arms: ArmSpec[];
  instances: ResolvedInstance[];
  concurrency: number;
  maxRetries: number;
  scriptsDir: string;
  /** Why each arm's coder version runs, for show and status (domain/agent-choice.ts). */
  agentWhy?: (arm: ArmSpec) => string | undefined;
}): Promise<EvalArmInput[]> {
  await mkdir(input.scriptsDir, { recursive: true });
  const noopScript = path.join(input.scriptsDir, 'noop.json');
  const noop = { coder: [{ tool_calls: [{ name: 'finish', arguments: { summary: 'changed nothing' } }] }] };
  await writeFile(noopScript, `${JSON.stringify(noop, null, 2)}\n`);
  return input.arms.map((arm) => ({
    evalId: input.evalId,
    suite: input.suiteName,
    arm,
    concurrency: input.concurrency,
    instances: input.instances.map((instance) => {
      const parsed = parseTaskSpec({
        id: instance.id,
        project: `${input.evalId}-${arm.id}`,
        repo: instance.repo,
        baseRef: instance.baseSha,
        goal: instance.goal,
        testCommand: instance.testCommand,
        testEnv: instance.testEnv,
        testTimeoutMs: instance.testTimeoutMs,
        ...(instance.environment === undefined ? {} : { environment: instance.environment }),
        allowedPaths: instance.allowedPaths,
        maxRetries: input.maxRetries,
        models: { coder: coderModelFor(arm, instance, noopScript) },
        ...(instance.maxSteps === undefined ? {} : { maxCoderSteps: instance.maxSteps }),
        ...(arm.agent === undefined ? {} : { agents: { coder: arm.agent } }),
        ...agentWhyField(input.agentWhy?.(arm)),
        ...(arm.learning ? {} : { learning: false }),
        ...(arm.samples === undefined ? {} : { samples: arm.samples }),
      });
      if (!parsed.success)
        throw new UsageError(`taskloop eval: instance ${instance.id}, arm ${arm.label}: ${parsed.error}`);
      return {
        spec: parsed.data,
        verify: {
          repo: instance.repo,
          baseRef: instance.baseSha,
          failToPass: instance.failToPass,
          passToPass: instance.passToPass,
          testCommand: instance.testCommand,
          testEnv: instance.testEnv,
          testTimeoutMs: instance.testTimeoutMs,
          ...(instance.environment === undefined ? {} : { environment: instance.environment }),
          ...(instance.overlay ? { overlay: instance.overlay } : {}),
        },
      };
    }),
  }));
}

const agentWhyField = (why: string | undefined) => (why === undefined ? {} : { agentsChosenBy: { coder: why } });
