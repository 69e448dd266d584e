import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../../platform/paths.js';
import { tasksFileJsonSchema } from '../../../../client/tasks-file/json-schema.js';
import { loadTasksFile } from '../../../../client/tasks-file/load.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function load(text: string) {
  const file = path.join(folder, 'tasks.yaml');
  await writeFile(file, text);
  return loadTasksFile(file);
}

const flat = `project: small
repo: ./repo
defaults:
  models: { coder: "scripted:coder.json" }
tasks:
  - id: a
    goal: Fix add
  - id: b
    goal: Fix mul
    dependsOn: [a]
`;

describe('the flat form of a tasks file', () => {
  it('reads top-level tasks as one milestone with one feature, dependencies kept', async () => {
    const result = await load(flat);
    if (!result.success) throw new Error(JSON.stringify(result.errors));
    expect(result.data.milestones).toEqual([{ id: 'main', features: [{ id: 'main', taskIds: ['a', 'b'] }] }]);
    expect(result.data.tasks.map((task) => [task.spec.id, task.dependsOn])).toEqual([
      ['a', []],
      ['b', ['a']],
    ]);
  });

  it('reports errors at the path and line where they were written', async () => {
    const result = await load(flat.replace('    goal: Fix mul', '    goal: Fix mul\n    maxRetries: three'));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.errors).toEqual([expect.objectContaining({ path: 'tasks[1].maxRetries', line: 10, column: 17 })]);
  });
});

describe('the JSON Schema of the tasks file', () => {
  it('is committed as generated from the zod schemas (run `npm run schemas` when this fails)', async () => {
    const committed = JSON.parse(await readFile(path.join(projectRoot, 'schemas', 'tasks-file.schema.json'), 'utf8'));
    expect(committed).toEqual(tasksFileJsonSchema());
  });

  it('offers the nested and the flat form, with the task fields of the task spec', () => {
    const schema = tasksFileJsonSchema() as {
      anyOf: {
        required: string[];
        properties: Record<string, { items?: { properties?: object; required?: string[] } }>;
      }[];
    };
    expect(schema.anyOf.map((form) => form.required)).toEqual([
      ['project', 'repo', 'milestones'],
      ['project', 'repo', 'tasks'],
    ]);
    const flatTask = schema.anyOf[1]?.properties.tasks?.items;
    expect(flatTask?.required).toEqual(['id', 'goal']);
    expect(Object.keys(flatTask?.properties ?? {})).toEqual(
      expect.arrayContaining(['goal', 'testCommand', 'maxRetries', 'models', 'dependsOn']),
    );
    expect(Object.keys(flatTask?.properties ?? {})).not.toContain('repo');
  });

  it('is what the example tasks file names for editors', async () => {
    const example = await readFile(path.join(projectRoot, 'examples', 'calc', 'tasks.yaml'), 'utf8');
    expect(example.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schemas/tasks-file.schema.json');
  });
});
