import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTasksFileErrors, loadTasksFile } from '../../../../client/tasks-file/load.js';
import type { TasksFileError } from '../../../../client/tasks-file/load.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function load(name: string, text: string) {
  const file = path.join(folder, name);
  await writeFile(file, text);
  return loadTasksFile(file);
}

async function loadErrors(name: string, text: string): Promise<TasksFileError[]> {
  const result = await load(name, text);
  if (result.success) throw new Error(`expected ${name} to fail, it loaded`);
  return result.errors;
}

const header = `project: demo
repo: ./repo
defaults:
  models: { coder: "scripted:coder.json" }
milestones:
`;

const validYaml = `project: shop
repo: ../shop-repo
defaults:
  concurrency: 3
  maxRetries: 1
  testCommand: [python3, -m, pytest, -q]
  models:
    coder: "scripted:turns/coder.json"
    reviewer: "openai:gpt-4o-mini"
milestones:
  - id: m1
    title: Basics
    features:
      - id: cart
        tasks:
          - id: add-item
            goal: Add an item to the cart
          - id: remove-item
            goal: Remove an item
            dependsOn: [add-item]
            maxRetries: 0
            models: { coder: "openai:gpt-4o" }
  - id: m2
    features:
      - id: checkout
        title: Checkout
        tasks:
          - id: pay
            goal: Pay for the cart
            dependsOn: [add-item, remove-item]
`;

describe('loadTasksFile', () => {
  it('loads a YAML file with two milestones into a plan: defaults merged, task overrides win, repo resolved', async () => {
    const result = await load('shop.yaml', validYaml);
    expect(result.success).toBe(true);
    if (!result.success) return;
    const plan = result.data;
    const repo = path.resolve(folder, '../shop-repo');
    expect(plan).toMatchObject({ project: 'shop', repo, concurrency: 3 });
    expect(plan.milestones).toEqual([
      { id: 'm1', title: 'Basics', features: [{ id: 'cart', taskIds: ['add-item', 'remove-item'] }] },
      { id: 'm2', features: [{ id: 'checkout', title: 'Checkout', taskIds: ['pay'] }] },
    ]);
    expect(plan.tasks.map((t) => [t.spec.id, t.milestone, t.feature, t.dependsOn])).toEqual([
      ['add-item', 'm1', 'cart', []],
      ['remove-item', 'm1', 'cart', ['add-item']],
      ['pay', 'm2', 'checkout', ['add-item', 'remove-item']],
    ]);
    const [addItem, removeItem] = plan.tasks;
    expect(addItem!.spec).toMatchObject({
      project: 'shop',
      repo,
      goal: 'Add an item to the cart',
      maxRetries: 1,
      testCommand: ['python3', '-m', 'pytest', '-q'],
      baseRef: 'HEAD',
      models: { coder: `scripted:${path.join(folder, 'turns/coder.json')}`, reviewer: 'openai:gpt-4o-mini' },
    });
    // The override wins for maxRetries; models merge per role, so the reviewer default stays.
    expect(removeItem!.spec.maxRetries).toBe(0);
    expect(removeItem!.spec.models).toEqual({ coder: 'openai:gpt-4o', reviewer: 'openai:gpt-4o-mini' });
  });

  it('loads the same plan from JSON', async () => {
    const json = {
      project: 'shop',
      repo: 'repo',
      defaults: { models: { coder: 'openai:gpt-4o-mini' } },
      milestones: [
        {
          id: 'm1',
          features: [
            {
              id: 'f1',
              tasks: [
                { id: 'a', goal: 'A' },
                { id: 'b', goal: 'B', dependsOn: ['a'] },
              ],
            },
          ],
        },
      ],
    };
    const result = await load('shop.json', JSON.stringify(json, null, 2));
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.repo).toBe(path.join(folder, 'repo'));
    expect(result.data.concurrency).toBe(2);
    expect(result.data.tasks.map((t) => [t.spec.id, t.dependsOn, t.spec.maxRetries])).toEqual([
      ['a', [], 2],
      ['b', ['a'], 2],
    ]);
  });

  it('reports a cycle with its path and the line of the dependsOn entry', async () => {
    const errors = await loadErrors(
      'cycle.yaml',
      `${header}  - id: m1
    features:
      - id: f1
        tasks:
          - { id: a, goal: A, dependsOn: [c] }
          - { id: b, goal: B, dependsOn: [a] }
          - { id: c, goal: C, dependsOn: [b] }
`,
    );
    expect(errors).toEqual([
      {
        file: expect.stringContaining('cycle.yaml'),
        line: 10,
        column: 43,
        path: 'milestones[0].features[0].tasks[0].dependsOn[0]',
        message: expect.stringContaining('cycle: a -> c -> b -> a'),
      },
    ]);
  });

  it('reports an unknown dependency at its line', async () => {
    const errors = await loadErrors(
      'unknown-dep.yaml',
      `${header}  - id: m1
    features:
      - id: f1
        tasks:
          - id: a
            goal: A
            dependsOn:
              - setup
`,
    );
    expect(errors).toMatchObject([
      {
        line: 13,
        column: 17,
        path: 'milestones[0].features[0].tasks[0].dependsOn[0]',
        message: "task 'a' depends on 'setup', which is not in the file",
      },
    ]);
  });

  it('reports a duplicate task id across features at the line of the second one', async () => {
    const errors = await loadErrors(
      'duplicate.yaml',
      `${header}  - id: m1
    features:
      - id: f1
        tasks:
          - { id: a, goal: A }
      - id: f2
        tasks:
          - { id: a, goal: again }
`,
    );
    expect(errors).toMatchObject([
      {
        line: 13,
        column: 19,
        path: 'milestones[0].features[1].tasks[0].id',
        message: "duplicate task id 'a' (first at milestones[0].features[0].tasks[0]); give each task its own id",
      },
    ]);
  });

  it('reports a wrong type at the line and column of the value, and formats it as file:line:column', async () => {
    const errors = await loadErrors(
      'tasks.yaml',
      `${header}  - id: m1
    features:
      - id: f1
        tasks:
          - id: a
            goal: A
          - id: b
            goal: B
            maxRetries: "three"
`,
    );
    expect(errors).toMatchObject([{ line: 14, column: 25, path: 'milestones[0].features[0].tasks[1].maxRetries' }]);
    const text = formatTasksFileErrors(errors.map((error) => ({ ...error, file: 'tasks.yaml' })));
    expect(text).toMatch(
      /^tasks\.yaml:14:25 milestones\[0\]\.features\[0\]\.tasks\[1\]\.maxRetries: expected a whole number from 0 to 2 \(the loop's retry cap/,
    );
  });

  it('reports a bad default once, at the defaults entry, even though every task inherits it', async () => {
    const errors = await loadErrors(
      'bad-default.yaml',
      `project: demo
repo: .
defaults:
  testTimeoutMs: -5
  models: { coder: "scripted:c.json" }
milestones:
  - id: m1
    features:
      - id: f1
        tasks: [{ id: a, goal: A }, { id: b, goal: B }]
`,
    );
    expect(errors).toMatchObject([
      { line: 4, column: 18, path: 'defaults.testTimeoutMs', message: expect.stringContaining('got -5') },
    ]);
  });

  it('reports unknown keys at the key, in a task and in the outline', async () => {
    const errors = await loadErrors(
      'unknown-key.yaml',
      `${header}  - id: m1
    feature: []
    features:
      - id: f1
        tasks:
          - id: a
            goal: A
            maxRetry: 2
`,
    );
    expect(errors).toMatchObject([
      { line: 7, column: 5, path: 'milestones[0].feature', message: expect.stringContaining('unknown key') },
      {
        line: 13,
        column: 13,
        path: 'milestones[0].features[0].tasks[0].maxRetry',
        message: expect.stringContaining('remove "maxRetry"'),
      },
    ]);
  });

  it('reports a missing goal at the task and a project id that breaks the pattern', async () => {
    const errors = await loadErrors(
      'missing.yaml',
      `project: "my project"
repo: .
defaults: { models: { coder: "scripted:c.json" } }
milestones:
  - id: m1
    features:
      - id: f1
        tasks:
          - id: a
`,
    );
    expect(errors).toMatchObject([
      { line: 1, column: 10, path: 'project', message: expect.stringContaining('got "my project"') },
      {
        line: 9,
        column: 13,
        path: 'milestones[0].features[0].tasks[0].goal',
        message: expect.stringContaining('got nothing'),
      },
    ]);
  });

  it('reports a YAML syntax error with its line', async () => {
    const errors = await loadErrors(
      'syntax.yaml',
      `project: demo\nrepo: .\nmilestones:\n  - id: [m1\n    features: []\n`,
    );
    expect(errors).toEqual([
      {
        file: expect.stringContaining('syntax.yaml'),
        line: 5,
        column: 5,
        path: '',
        message: expect.stringMatching(/^invalid YAML: Flow sequence/),
      },
    ]);
  });

  it('refuses project in a task and id in defaults, since the top level and each task own them', async () => {
    const errors = await loadErrors(
      'owned.yaml',
      `project: demo
repo: .
defaults: { id: x, models: { coder: "scripted:c.json" } }
milestones:
  - id: m1
    features:
      - id: f1
        tasks:
          - { id: a, goal: A, project: other }
`,
    );
    expect(errors).toMatchObject([
      { line: 3, column: 17, path: 'defaults.id', message: 'each task sets its own id; remove it from defaults' },
      {
        line: 9,
        column: 40,
        path: 'milestones[0].features[0].tasks[0].project',
        message: expect.stringContaining('set once at the top level'),
      },
    ]);
  });

  it('says when the file does not exist, with its path', async () => {
    const missing = path.join(folder, 'nope.yaml');
    const result = await loadTasksFile(missing);
    expect(result).toEqual({
      success: false,
      errors: [{ file: missing, path: '', message: `tasks file not found: ${missing}; check the path` }],
    });
    if (!result.success)
      expect(formatTasksFileErrors(result.errors)).toBe(`${missing} tasks file not found: ${missing}; check the path`);
  });
});
