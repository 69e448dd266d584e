// `taskloop run` flags -> a task spec input, and spec problems reported under the flag that set the field.
import { acceptedModelForms } from '../../domain/providers.js';
import path from 'node:path';
import { parseTaskSpec } from '../../domain/task-spec.js';
import { SHARED_TASK_QUEUE } from '../../workflows/task-queues.js';
import { parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import { mergeModels, type TaskloopConfig } from '../config.js';
import { splitCommandWords } from './command-words.js';
import { parseDuration } from './duration.js';
import { deriveTaskId } from './task-id.js';
import { resolveCodecKeys } from '../../platform/codec/codec-keys.js';

const runFlagOptions = {
  repo: { type: 'string' },
  goal: { type: 'string' },
  'test-command': { type: 'string' },
  'test-env': { type: 'string', multiple: true },
  'max-retries': { type: 'string' },
  model: { type: 'string' },
  agent: { type: 'string' },
  'reviewer-model': { type: 'string' },
  'judge-model': { type: 'string' },
  'skill-writer-model': { type: 'string' },
  id: { type: 'string' },
  project: { type: 'string' },
  'base-ref': { type: 'string' },
  'land-on': { type: 'string' },
  acceptance: { type: 'string', multiple: true },
  'allow-path': { type: 'string', multiple: true },
  'allow-test-edits': { type: 'boolean' },
  'retry-window': { type: 'string' },
  approval: { type: 'string' },
  'approval-timeout': { type: 'string' },
  'secret-env': { type: 'string', multiple: true },
  'max-steps': { type: 'string' },
  samples: { type: 'string' },
  'task-queue': { type: 'string' },
  wait: { type: 'boolean' },
  json: { type: 'boolean' },
  'skip-provider-check': { type: 'boolean' },
  'allow-dirty': { type: 'boolean' },
  environment: { type: 'string' },
} as const;

/** Which flag sets each spec field, so an invalid field is reported as the flag the user typed. */
const flagOfField: Record<string, string> = {
  id: '--id',
  project: '--project',
  repo: '--repo',
  baseRef: '--base-ref',
  landOn: '--land-on',
  goal: '--goal',
  testCommand: '--test-command',
  testEnv: '--test-env',
  acceptanceTests: '--acceptance',
  allowedPaths: '--allow-path',
  maxRetries: '--max-retries',
  models: '--model',
  budgets: 'taskloop.config.json budgets',
  maxCoderSteps: '--max-steps',
  samples: '--samples',
  retryWindowMs: '--retry-window',
  approval: '--approval',
  approvalTimeoutMs: '--approval-timeout',
  secretEnvNames: '--secret-env',
  environment: '--environment',
};

/** The fix in CLI words for fields whose schema fix speaks of spec keys (those fixes hold no " (" of their own). */
const cliFixOfField: Record<string, string> = {
  id: 'pass e.g. --id fix-cache-key, or leave it out to derive one from the goal',
  project: 'pass e.g. --project default',
  repo: 'pass --repo with the path of a git repository',
  baseRef: 'pass e.g. --base-ref main, or leave it out for HEAD',
  goal: 'pass e.g. --goal "fix #218: cache_key is ignored"',
  models: `pass --model ${acceptedModelForms}`,
  'models.coder': `pass --model ${acceptedModelForms}`,
  maxRetries: 'pass --max-retries 0, 1 or 2: the loop caps retries at 2',
  maxCoderSteps: 'pass e.g. --max-steps 30',
  samples: 'pass e.g. --samples 3, or leave it out for one coder run an attempt',
  approval: 'pass --approval required (wait for a person after the commit) or --approval none',
};

export interface RunRequest {
  /** The spec input for prepareTaskSpec (not yet validated). */
  input: Record<string, unknown>;
  taskQueue: string;
  wait: boolean;
  json: boolean;
  /** Leave the model keys to the workers (they call the models with their own environment). */
  skipProviderCheck: boolean;
  /** Start even when the repository has uncommitted changes (warned about). */
  allowDirty: boolean;
  /** Where `environment` came from, for its errors: the flag or the config file. */
  environmentOrigin: string;
  /** The coder version asked for by `--agent` and by the config file (client/tasks/coder-agent.ts decides). */
  coderChoice: { flag?: string; config?: string };
}

/** Parses `taskloop run` arguments; flag-level problems (unknown flag, bad duration, K=V) are UsageErrors. */
export function parseRunFlags(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  config: TaskloopConfig = {},
): RunRequest {
  const { values } = parseFlags('run', argv, runFlagOptions);
  const input: Record<string, unknown> = {};
  const set = (field: string, value: unknown) => {
    if (value !== undefined) input[field] = value;
  };
  set('project', values.project);
  set('repo', values.repo);
  set('baseRef', values['base-ref']);
  set('landOn', values['land-on'] ?? config.landOn);
  set('goal', values.goal);
  if (values['test-command'] !== undefined) set('testCommand', splitTestCommand(values['test-command']));
  if (values['test-env']) set('testEnv', Object.fromEntries(values['test-env'].map(splitAssignment)));
  set('acceptanceTests', values.acceptance);
  set('allowedPaths', values['allow-path']);
  set('allowTestEdits', values['allow-test-edits']);
  set('maxRetries', numberOrText(values['max-retries']));
  set('maxCoderSteps', numberOrText(values['max-steps']));
  set('samples', numberOrText(values.samples));
  if (values['retry-window'] !== undefined) set('retryWindowMs', durationMs(values['retry-window']));
  // The config's approval settings are a team's default; the flags win.
  set('approval', values.approval ?? config.approval);
  if (values['approval-timeout'] !== undefined)
    set('approvalTimeoutMs', durationMs(values['approval-timeout'], '--approval-timeout (approvalTimeoutMs)'));
  else set('approvalTimeoutMs', config.approvalTimeoutMs);
  set('secretEnvNames', values['secret-env']);
  set(
    'models',
    mergeModels(config, {
      coder: values.model,
      reviewer: values['reviewer-model'],
      judge: values['judge-model'],
      skillWriter: values['skill-writer-model'],
    }),
  );
  set('budgets', config.budgets);
  set('environment', values.environment ?? config.environment);
  const repo = values.repo === undefined ? '' : path.resolve(cwd, values.repo);
  input.id = values.id ?? deriveTaskId(values.goal ?? '', repo, resolveCodecKeys(env)?.current.key);
  return {
    input,
    taskQueue: values['task-queue'] ?? env.TASKLOOP_TASK_QUEUE ?? SHARED_TASK_QUEUE,
    wait: values.wait ?? false,
    json: values.json ?? false,
    skipProviderCheck: values['skip-provider-check'] ?? false,
    allowDirty: values['allow-dirty'] ?? false,
    environmentOrigin: values.environment === undefined ? 'taskloop.config.json environment' : '--environment',
    coderChoice: { flag: values.agent, config: config.agents?.coder },
  };
}

/** Schema problems of the input, one line each, named by flag and field; throws a UsageError when any. */
export function checkRunInput(input: Record<string, unknown>): void {
  const parsed = parseTaskSpec(input);
  if (parsed.success) return;
  const lines = parsed.issues.map((issue) => {
    const flag = flagOfField[issue.field.split('.')[0] ?? ''];
    const fix = cliFixOfField[issue.field];
    const cut = issue.message.lastIndexOf(' (');
    // Only a generic "expected …" message ends in the field's fix; a specific reason keeps its own.
    const generic = issue.message.startsWith('expected');
    const message = fix && generic && cut > 0 ? `${issue.message.slice(0, cut)} (${fix})` : issue.message;
    return `taskloop run: ${flag ? `${flag} (${issue.field})` : issue.field}: ${message}`;
  });
  throw new UsageError(lines.join('\n'));
}

function splitTestCommand(text: string): string[] {
  const words = splitCommandWords(text);
  if (!words.success) throw new UsageError(`taskloop run: --test-command: ${words.error}`);
  return words.data;
}

function splitAssignment(text: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0)
    throw new UsageError(
      `taskloop run: --test-env must be NAME=VALUE, got ${JSON.stringify(text)}; write it like --test-env PYTHONHASHSEED=0`,
    );
  return [text.slice(0, at), text.slice(at + 1)];
}

function durationMs(text: string, flag = '--retry-window (retryWindowMs)'): number {
  const parsed = parseDuration(text);
  if (!parsed.success) throw new UsageError(`taskloop run: ${flag}: ${parsed.error}`);
  return parsed.data;
}

// Numbers become numbers; anything else goes to the schema as typed, so its error shows what was received.
function numberOrText(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  return /^[+-]?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text;
}
