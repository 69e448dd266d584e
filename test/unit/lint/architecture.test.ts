import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';

// Type-aware rules need files in the project; import rules do not, so these probes lint text at sandbox paths.
const eslint = new ESLint({
  cwd: projectRoot,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) =>
    ['no-restricted-imports', 'no-restricted-globals', 'no-restricted-properties', 'no-restricted-syntax'].includes(
      ruleId,
    ),
});

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot, file) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('lint guards the architecture', () => {
  it.each([
    ["import { readFile } from 'node:fs/promises';", 'node:fs/promises'],
    ["import fs from 'fs';", "'fs'"],
    ["import { execa } from 'execa';", 'execa'],
    ["import { simpleGit } from 'simple-git';", 'simple-git'],
    ["import { Client } from '@temporalio/client';", '@temporalio/client'],
    ["import { Worker } from '@temporalio/worker';", '@temporalio/worker'],
    ["import { Context } from '@temporalio/activity';", '@temporalio/activity'],
  ])('refuses %s in workflows/', async (code, named) => {
    const found = await problems('workflows/probe-lint.ts', `${code}\nexport const x = 1;\n`);
    expect(found.join('\n')).toContain(named);
  });

  it('allows activity types but not activity values in workflows/', async () => {
    expect(
      await problems(
        'workflows/probe-lint.ts',
        "import type { TaskloopActivities } from '../activities/index.js';\nexport type A = TaskloopActivities;\n",
      ),
    ).toEqual([]);
    expect(
      (
        await problems(
          'workflows/probe-lint.ts',
          "import { createActivities } from '../activities/index.js';\nexport const a = createActivities;\n",
        )
      ).length,
    ).toBe(1);
  });

  it('allows the workflow SDK in workflows/ and zod in domain/', async () => {
    expect(
      await problems(
        'workflows/probe-lint.ts',
        "import { sleep } from '@temporalio/workflow';\nexport const s = sleep;\n",
      ),
    ).toEqual([]);
    expect(await problems('domain/probe-lint.ts', "import { z } from 'zod';\nexport const s = z.string();\n")).toEqual(
      [],
    );
  });

  it('allows only the listed pure packages in domain/', async () => {
    const pure =
      "import picomatch from 'picomatch';\nimport { sha256 } from '@noble/hashes/sha2';\nimport { parse } from 'yaml';\nimport { isTestFile } from './paths.js';\nexport const p = [picomatch, sha256, parse, isTestFile];\n";
    expect(await problems('domain/probe-lint.ts', pure)).toEqual([]);
    const other = await problems(
      'domain/probe-lint.ts',
      "import protobuf from 'protobufjs';\nexport const p = protobuf;\n",
    );
    expect(other).toHaveLength(1);
    expect(other[0]).toContain('pure packages');
  });

  it('refuses Temporal, Node built-ins, the clock, randomness and the process in domain/', async () => {
    const code = [
      "import { sleep } from '@temporalio/workflow';",
      "import path from 'node:path';",
      'export const a = Date.now();',
      'export const b = Math.random();',
      'export const c = new Date();',
      'export const d = process.env.HOME;',
      'export const e = [sleep, path];',
    ].join('\n');
    const found = await problems('domain/probe-lint.ts', code);
    expect(found).toHaveLength(6);
  });

  it.each([
    ['activities/probe-lint.ts', "import { connectClient } from '../client/tasks/task-client.js';"],
    ['activities/learning/probe-lint.ts', "import { stateDir } from '../../workers/host.js';"],
    ['workers/probe-lint.ts', "import { parseArgs } from '../client/args.js';"],
    ['platform/probe-lint.ts', "import { launch } from '../workers/launch.js';"],
    ['platform/server/probe-lint.ts', "import { run } from '../../client/cli.js';"],
    // The three arrows the layer table forbids that lint once let through (issue 55).
    ['workflows/probe-lint.ts', "import { stateDir } from '../platform/paths.js';"],
    ['activities/probe-lint.ts', "import { TaskWorkflow } from '../workflows/task.js';"],
    ['activities/coder/probe-lint.ts', "import { runNodes } from '../../workflows/task/run-nodes.js';"],
    ['platform/probe-lint.ts', "import { createActivities } from '../activities/index.js';"],
    ['platform/local-model/probe-lint.ts', "import { runTests } from '../../activities/tests/index.js';"],
  ])('refuses the upward import in %s', async (file, code) => {
    const found = await problems(file, `${code}\nexport const x = 1;\n`);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain('no-restricted-imports');
  });

  it('allows platform/ in workers/ and client/, and workflows/ messages in activities/', async () => {
    expect(
      await problems(
        'workers/probe-lint.ts',
        "import { stateDir } from '../platform/paths.js';\nexport const s = stateDir;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'client/probe-lint.ts',
        "import { stateDir } from '../platform/paths.js';\nexport const s = stateDir;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'activities/probe-lint.ts',
        "import { failureSignal } from '../workflows/learning/messages.js';\nexport const s = failureSignal;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'activities/probe-lint.ts',
        "import { retryUpdate } from '../workflows/messages.js';\nimport { x } from '../workflows/project-messages.js';\nexport const s = [retryUpdate, x];\n",
      ),
    ).toEqual([]);
  });

  it('allows workflow code in activities/ and platform/ types in workflows/ as types only', async () => {
    expect(
      await problems(
        'activities/probe-lint.ts',
        "import type { TaskRun } from '../workflows/task/task-run.js';\nexport type T = TaskRun;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'workflows/probe-lint.ts',
        "import type { LocalModelPaths } from '../platform/local-model/pins.js';\nexport type P = LocalModelPaths;\n",
      ),
    ).toEqual([]);
  });

  it('flags a floating promise anywhere', async () => {
    // A one-file program keeps type-aware linting quick; the rule and its settings are the project's own.
    const typed = new ESLint({
      cwd: projectRoot,
      ignore: false,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false, project: 'test/fixtures/lint/tsconfig.json' } },
      },
    });
    const [result] = await typed.lintFiles([path.join(projectRoot, 'test/fixtures/lint/floating.ts')]);
    expect(result?.messages.map((message) => message.ruleId)).toContain('@typescript-eslint/no-floating-promises');
  });
});
