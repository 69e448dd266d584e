// The JSON Schema of a tasks file for editors (YAML language server, VS Code), generated from the zod schemas
// that check it: the outline (nested or flat) with the task spec's own fields in place of its loose tasks.
import { z } from 'zod';
import { taskSpecSchema } from '../../domain/task-spec.js';
import { tasksFileSchema } from './schema.js';

type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
};

const toJson = (schema: z.ZodType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Task fields as written in a file: no project or repo (set at the top), plus dependsOn. */
function taskFields(): Record<string, JsonSchema> {
  const { properties = {} } = toJson(taskSpecSchema);
  // agentsChosenBy is the CLI's record of why a coder version runs, not a field to write.
  const { project: _project, repo: _repo, agentsChosenBy: _chosenBy, ...fields } = properties;
  return {
    ...fields,
    dependsOn: { type: 'array', items: { type: 'string' }, description: 'ids of the tasks this one waits for' },
  };
}

export function tasksFileJsonSchema(): JsonSchema {
  const { $schema, ...outline } = toJson(tasksFileSchema);
  const fields = taskFields();
  const task: JsonSchema = {
    type: 'object',
    properties: fields,
    required: ['id', 'goal'],
    additionalProperties: false,
  };
  const { id: _id, goal: _goal, dependsOn: _dependsOn, ...defaultFields } = fields;
  const concurrency: JsonSchema = outline.properties?.defaults?.properties?.concurrency ?? {};
  const properties: Record<string, JsonSchema> = {
    ...outline.properties,
    defaults: {
      type: 'object',
      description: 'fields every task gets unless it sets them, and the concurrency',
      properties: { ...defaultFields, concurrency },
      additionalProperties: false,
    },
  };
  const milestones = structuredClone(properties.milestones) as JsonSchema;
  const features = milestones.items?.properties?.features?.items;
  if (!features?.properties?.tasks)
    throw new Error('the tasks-file outline changed shape: milestones[].features[].tasks not found');
  features.properties.tasks = { ...features.properties.tasks, items: task };
  const { milestones: _milestones, ...common } = properties;
  return {
    $schema,
    title: 'taskloop tasks file',
    description: 'A project of tasks: nested (milestones -> features -> tasks) or flat (tasks at the top level).',
    anyOf: [
      {
        type: 'object',
        properties: { ...common, milestones },
        required: ['project', 'repo', 'milestones'],
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { ...common, tasks: { type: 'array', minItems: 1, items: task } },
        required: ['project', 'repo', 'tasks'],
        additionalProperties: false,
      },
    ],
  };
}
