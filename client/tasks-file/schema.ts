// The outline of a tasks file (project, repo, defaults, milestones -> features -> tasks). Task fields
// themselves are checked by the task spec once defaults are merged, so here tasks are loose objects.
import { z } from 'zod';

const idPattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const idText = 'an id of 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';

const idSchema = (example: string) => {
  const error = `expected ${idText} (e.g. "${example}")`;
  return z.string({ error }).regex(idPattern, { error });
};
const titleSchema = z.string({ error: 'expected a title in words' }).optional();
const refuse = (message: string) => z.undefined({ error: message }).optional();
const setOnTop = (key: string) => refuse(`${key} is set once at the top level of the file; remove it here`);

/** Task ids one task waits for. */
const dependsOnSchema = z
  .array(z.string({ error: 'expected a task id' }), { error: 'expected a list of task ids (e.g. [setup-db])' })
  .optional();

const taskSchema = z.looseObject(
  { dependsOn: dependsOnSchema, project: setOnTop('project'), repo: setOnTop('repo') },
  { error: 'expected a task: a mapping with at least id and goal' },
);

const featureSchema = z.strictObject(
  {
    id: idSchema('cache-layer'),
    title: titleSchema,
    tasks: z
      .array(taskSchema, { error: 'expected a list of tasks' })
      .min(1, { error: 'needs at least one task; add one or remove the feature' }),
  },
  { error: 'expected a feature: a mapping with id and tasks' },
);

const milestoneSchema = z.strictObject(
  {
    id: idSchema('m1'),
    title: titleSchema,
    features: z
      .array(featureSchema, { error: 'expected a list of features' })
      .min(1, { error: 'needs at least one feature; add one or remove the milestone' }),
  },
  { error: 'expected a milestone: a mapping with id and features' },
);

/** Defaults for every task: any task spec field but id and goal, plus the project's concurrency. */
const defaultsSchema = z.looseObject(
  {
    concurrency: z
      .number({ error: 'expected a whole number from 1 to 32' })
      .int({ error: 'expected a whole number from 1 to 32' })
      .min(1, { error: 'expected a whole number from 1 to 32' })
      .max(32, { error: 'expected a whole number from 1 to 32' })
      .optional(),
    id: refuse('each task sets its own id; remove it from defaults'),
    goal: refuse('each task sets its own goal; remove it from defaults'),
    dependsOn: refuse('dependsOn belongs to each task; remove it from defaults'),
    project: setOnTop('project'),
    repo: setOnTop('repo'),
  },
  { error: 'expected a mapping of task fields' },
);

export const tasksFileSchema = z.strictObject(
  {
    project: idSchema('my-project'),
    repo: z.string({ error: 'expected a git URL or the path of the git repository (relative to this file)' }).min(1, {
      error: 'expected a git URL or the path of the git repository (relative to this file)',
    }),
    defaults: defaultsSchema.optional(),
    milestones: z
      .array(milestoneSchema, { error: 'expected a list of milestones' })
      .min(1, { error: 'needs at least one milestone, with a feature and a task' }),
  },
  { error: 'expected a tasks file: a mapping with project, repo and milestones' },
);

export type TasksFile = z.infer<typeof tasksFileSchema>;

/** Keys allowed at each level of the outline, for "unknown key" messages (indexed by path depth). */
export const outlineKeys: Record<number, string[]> = {
  0: [...Object.keys(tasksFileSchema.shape), 'tasks'],
  2: Object.keys(milestoneSchema.shape),
  4: Object.keys(featureSchema.shape),
};

export const defaultConcurrency = 2;
