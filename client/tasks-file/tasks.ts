// Finds every task in a parsed tasks file and validates it as a full task spec, defaults merged.
import path from 'node:path';
import { describeValue } from '../../domain/task-spec-errors.js';
import { parseTaskSpec, taskSpecFieldsSchema } from '../../domain/task-spec.js';
import type { TaskSpec } from '../../domain/task-spec.js';
import { valueAt } from './errors.js';
import type { PathError } from './errors.js';
import type { PathSegment } from './positions.js';

/** A task as written, with where it sits; found even when other parts of the file are malformed. */
export interface RawTask {
  path: PathSegment[];
  milestone: unknown;
  feature: unknown;
  fields: Record<string, unknown>;
}

export interface CheckedTask extends RawTask {
  spec?: TaskSpec;
}

// Keys the outline owns: stripped before the task spec sees the task (the outline schema reports misuse).
// agentsChosenBy is what the commands record of the coder version's choice (domain/agent-choice.ts), never read from a file.
const outlineOnlyTaskKeys = new Set(['dependsOn', 'project', 'repo', 'agentsChosenBy']);
const outlineOnlyDefaultKeys = new Set(['concurrency', 'id', 'goal', 'dependsOn', 'project', 'repo', 'agentsChosenBy']);
const taskFieldKeys = Object.keys(taskSpecFieldsSchema.shape);

/** Walks milestones -> features -> tasks, skipping whatever is not a mapping where one is expected. */
export function collectRawTasks(root: unknown): RawTask[] {
  const tasks: RawTask[] = [];
  eachRecord(root, ['milestones'], (milestone, milestonePath) =>
    eachRecord(milestone, [...milestonePath, 'features'], (feature, featurePath) =>
      eachRecord(feature, [...featurePath, 'tasks'], (fields, path) => {
        tasks.push({ path, milestone: milestone.id, feature: feature.id, fields });
      }),
    ),
  );
  return tasks;
}

function eachRecord(
  parent: unknown,
  path: PathSegment[],
  visit: (item: Record<string, unknown>, itemPath: PathSegment[]) => void,
): void {
  const list = isRecord(parent) ? parent[path[path.length - 1] as string] : undefined;
  if (!Array.isArray(list)) return;
  list.forEach((item, index) => {
    if (isRecord(item)) visit(item, [...path, index]);
  });
}

/**
 * Merges defaults under each task, fills in project and repo, and validates with the task spec. Issues point
 * at the task's own field, or at `defaults.<field>` when the value came from defaults.
 */
export function checkTasks(
  tasks: RawTask[],
  context: { project: string; repo: string; defaults: Record<string, unknown>; folder: string },
): { tasks: CheckedTask[]; errors: PathError[] } {
  const defaults = omitKeys(context.defaults, outlineOnlyDefaultKeys);
  const errors: PathError[] = [];
  const checked = tasks.map((task): CheckedTask => {
    const own = omitKeys(task.fields, outlineOnlyTaskKeys);
    const merged = { ...mergeTaskFields(defaults, own), project: context.project, repo: context.repo };
    const result = parseTaskSpec(merged);
    if (result.success)
      return { ...task, spec: withCoderSource(resolveScriptedModels(result.data, context.folder), own) };
    for (const issue of result.issues) {
      const field = issue.field === '(task spec)' ? [] : issue.field.split('.').map(toSegment);
      // Project and repo come from the top level, which the outline schema checks and reports.
      if (field[0] === 'project' || field[0] === 'repo') continue;
      const fromDefaults =
        field.length > 0 && valueAt(own, field) === undefined && valueAt(defaults, field) !== undefined;
      const unknownKey = issue.message.startsWith('unknown field');
      const topLevelKey = unknownKey && field.length === 1;
      errors.push({
        path: [...(fromDefaults ? ['defaults'] : task.path), ...field],
        target: unknownKey ? 'key' : 'value',
        message: topLevelKey ? describeUnknownKey(String(field[0]), issue.value, fromDefaults) : issue.message,
      });
    }
    return task;
  });
  return { tasks: checked, errors };
}

/** A task's fields win over defaults; `models` and `agents` merge per role so a task can change only its coder. */
function mergeTaskFields(defaults: Record<string, unknown>, own: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...defaults, ...own };
  if (isRecord(defaults.models) && isRecord(own.models)) merged.models = { ...defaults.models, ...own.models };
  if (isRecord(defaults.agents) && isRecord(own.agents)) merged.agents = { ...defaults.agents, ...own.agents };
  return merged;
}

/** Where a task's coder version was written, in the words show and status use (domain/agent-choice.ts). */
function withCoderSource(spec: TaskSpec, own: Record<string, unknown>): TaskSpec {
  if (spec.agents?.coder === undefined) return spec;
  const why =
    isRecord(own.agents) && own.agents.coder !== undefined
      ? "the task's agents.coder"
      : "the tasks file's defaults.agents.coder";
  return { ...spec, agentsChosenBy: { ...spec.agentsChosenBy, coder: why } };
}

// `scripted:<file>` names a file next to the tasks file, like `repo`; workers may run from another folder.
function resolveScriptedModels(spec: TaskSpec, folder: string): TaskSpec {
  const resolve = (model: string): string =>
    model.startsWith('scripted:') ? `scripted:${path.resolve(folder, model.slice('scripted:'.length))}` : model;
  const models = Object.entries(spec.models).map(([role, model]) => [
    role,
    typeof model === 'string' ? resolve(model) : model,
  ]);
  return { ...spec, models: Object.fromEntries(models) as TaskSpec['models'] };
}

function describeUnknownKey(key: string, value: unknown, inDefaults: boolean): string {
  const known = inDefaults
    ? [...taskFieldKeys.filter((name) => !outlineOnlyDefaultKeys.has(name)), 'concurrency']
    : [...taskFieldKeys.filter((name) => !outlineOnlyTaskKeys.has(name)), 'dependsOn'];
  return `unknown key, got ${describeValue(value)} (remove "${key}" or fix its spelling; known keys: ${known.join(', ')})`;
}

function toSegment(part: string): PathSegment {
  return /^\d+$/.test(part) ? Number(part) : part;
}

function omitKeys(record: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.has(key)));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
