import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseSuite } from '../../../../domain/eval/parse-suite.js';
import { suiteJsonSchema } from '../../../../domain/eval/suite-json-schema.js';
import { projectRoot } from '../../../../platform/paths.js';

const instance = {
  id: 'fix-add',
  repo: './repo',
  baseRef: 'main',
  goal: 'add subtracts',
  failToPass: ['tests/test_calc.py::test_add'],
  passToPass: ['tests/test_calc.py::test_mul'],
};

const issuesOf = (input: unknown) => {
  const result = parseSuite(input);
  if (result.success) throw new Error('expected the suite to be refused');
  return result.issues.map((issue) => `${issue.field}: ${issue.message}`);
};

describe('parseSuite', () => {
  it('accepts a suite of instances with their tests', () => {
    const result = parseSuite({ name: 'tiny', instances: [instance] });
    expect(result.success).toBe(true);
  });

  it('names an unknown field, its value and the known ones', () => {
    expect(issuesOf({ name: 'tiny', instances: [{ ...instance, failToPas: ['x.py'] }] })).toEqual([
      expect.stringMatching(/^instances\[0\]\.failToPas: unknown field, got \["x.py"\] \(remove it.*known: id, repo/),
    ]);
  });

  it('refuses missing test ids, naming the field and the fix', () => {
    const { failToPass: _f, passToPass: _p, ...bare } = instance;
    expect(issuesOf({ name: 'tiny', instances: [bare] })).toEqual([
      expect.stringMatching(/^instances\[0\]\.failToPass: got nothing \(fix: list at least one test/),
      expect.stringMatching(/^instances\[0\]\.passToPass: missing \(fix: list the tests that must keep passing/),
    ]);
  });

  it('refuses a node id that is not a pytest file path, a base ref beside a fix commit, and duplicate ids', () => {
    const lines = issuesOf({
      name: 'tiny',
      instances: [
        { ...instance, failToPass: ['test_add'] },
        { ...instance, fixCommit: 'abc1234' },
      ],
    });
    expect(lines).toEqual([
      expect.stringMatching(/^instances\[0\]\.failToPass\[0\]: expected a pytest node id.*got "test_add"/),
    ]);
    expect(issuesOf({ name: 'tiny', instances: [instance, { ...instance, fixCommit: 'abc1234' }] })).toEqual([
      expect.stringMatching(/^instances\[1\]\.id: duplicate id "fix-add"/),
      expect.stringMatching(/^instances\[1\]\.baseRef: got "main" beside fixCommit .*remove baseRef/),
    ]);
  });

  it('lets a fix commit stand in for the base ref and the tests', () => {
    const result = parseSuite({
      name: 'tiny',
      instances: [{ id: 'a', repo: 'https://github.com/o/r', fixCommit: 'abcdef1', goal: 'g' }],
    });
    expect(result.success).toBe(true);
  });
});

describe('the suite JSON Schema', () => {
  it('is committed as generated from the zod schema (run `npm run schemas` when this fails)', async () => {
    const committed = JSON.parse(await readFile(path.join(projectRoot, 'schemas', 'eval-suite.schema.json'), 'utf8'));
    expect(committed).toEqual(suiteJsonSchema());
  });
});

describe('the starter suite', () => {
  it('is a valid suite of at least 30 upstream fixes from several projects, each with its tests', async () => {
    const result = parseSuite(parse(await readFile(path.join(projectRoot, 'evals', 'starter.yaml'), 'utf8')));
    if (!result.success) throw new Error(result.issues.map((issue) => `${issue.field}: ${issue.message}`).join('\n'));
    const { instances } = result.data;
    expect(instances.length).toBeGreaterThanOrEqual(30);
    // The tier where small models have a chance: `taskloop eval evals/starter.yaml --tags one-line`.
    expect(instances.filter((instance) => instance.tags?.includes('one-line')).length).toBeGreaterThanOrEqual(10);
    expect(new Set(instances.map((instance) => instance.repo)).size).toBeGreaterThanOrEqual(3);
    expect(instances.every((i) => i.fixCommit?.length === 40 && (i.failToPass?.length ?? 0) > 0)).toBe(true);
    expect(instances.some((instance) => instance.repo.includes('cachetools'))).toBe(false);
  });

  it("names no path of one machine: no mirror (a user's option), no absolute path anywhere", async () => {
    for (const file of ['starter.yaml', 'starter.sources.yaml']) {
      const text = await readFile(path.join(projectRoot, 'evals', file), 'utf8');
      const result = parseSuite(parse(text));
      expect(result.success && result.data.instances.filter((instance) => instance.mirror !== undefined)).toEqual([]);
      expect(text.match(/(^|[\s'"])\/(work|home|root|tmp|srv)\/\S*/gm) ?? [], file).toEqual([]);
    }
  });
});
