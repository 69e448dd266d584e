import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSkill, type GenerateSkillInput } from '../../../../activities/learning/generate-skill.js';
import { parseSkill, skillId } from '../../../../domain/learning/skills.js';

const reply = (whenItApplies: string) => ({
  content: JSON.stringify({ whenItApplies, whatToDo: 'Read fetcher.py first.' }),
});

async function setUp(skillWriter: { content: string }[]) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
  await writeFile(path.join(dir, 'script.json'), JSON.stringify({ skillWriter }));
  const skillsDir = path.join(dir, 'skills', 'p');
  const failure = (n: number) => ({
    workflowId: `task-p-t${n}`,
    taskId: `t${n}`,
    attempt: 1,
    description: 'Fix the cache key',
    failureClass: 'context_problem',
    reason: 'tests failed',
    evidence: '',
  });
  const input = (startTurn: number, sourceWorkflowIds: string[]): GenerateSkillInput => ({
    project: 'p',
    modelSpec: 'scripted:script.json',
    startTurn,
    pattern: 'cross_dep',
    description: 'Fix the cache key',
    failures: sourceWorkflowIds.map((_, i) => failure(i + 1)),
    sourceWorkflowIds,
    sourceTaskIds: sourceWorkflowIds.map((id) => id.replace('task-p-', '')),
    hosts: ['host-a'],
  });
  const deps = { cwd: dir, workDir: dir, now: () => new Date('2026-02-03T04:05:06.000Z') };
  return { skillsDir, input, deps };
}

describe('generateSkill', () => {
  it('returns the scripted draft with pattern, trigger, steps and provenance, mirrored as <workDir>/skills/<project>/<id>.md', async () => {
    const { skillsDir, input, deps } = await setUp([reply('Fixing cache keys')]);
    const written = await generateSkill(input(0, ['task-p-t1', 'task-p-t2']), deps);
    const id = skillId('cross_dep', 'Fix the cache key');
    const skill = {
      id,
      pattern: 'cross_dep',
      whenItApplies: 'Fixing cache keys',
      whatToDo: 'Read fetcher.py first.',
      sourceWorkflowIds: ['task-p-t1', 'task-p-t2'],
      sourceTaskIds: ['t1', 't2'],
      hosts: ['host-a'],
      createdAt: '2026-02-03T04:05:06.000Z',
      writtenBy: 'model',
    };
    expect(written).toEqual({
      skill,
      id,
      path: path.join(skillsDir, `${id}.md`),
      pattern: 'cross_dep',
      sourceWorkflowIds: ['task-p-t1', 'task-p-t2'],
      writtenBy: 'model',
    });
    expect(parseSkill(await readFile(written.path, 'utf8'))).toEqual({ success: true, data: skill });
  });

  it('uses the scripted turn named by startTurn', async () => {
    const { input, deps } = await setUp([reply('first'), reply('second')]);
    const written = await generateSkill(input(1, ['task-p-t1']), deps);
    expect(await readFile(written.path, 'utf8')).toContain('second');
  });

  it('updates the skill the project learned before (same id, same mirror file), merging provenance and keeping the creation time', async () => {
    const { skillsDir, input, deps } = await setUp([reply('Fixing cache keys'), reply('Fixing cache keys, revised')]);
    const first = await generateSkill(input(0, ['task-p-t1', 'task-p-t2']), deps);
    const again = await generateSkill(
      { ...input(1, ['task-p-t2', 'task-p-t3']), existing: first.skill },
      {
        ...deps,
        now: () => new Date('2030-01-01T00:00:00.000Z'),
      },
    );
    expect(await readdir(skillsDir)).toEqual([path.basename(again.path)]);
    expect(again.sourceWorkflowIds).toEqual(['task-p-t1', 'task-p-t2', 'task-p-t3']);
    const stored = parseSkill(await readFile(again.path, 'utf8'));
    expect(stored.success && stored.data).toMatchObject({
      whenItApplies: 'Fixing cache keys, revised',
      createdAt: '2026-02-03T04:05:06.000Z',
    });
  });

  it('distils a skill without a model when the reply is not a draft, saying why', async () => {
    const { input, deps } = await setUp([{ content: 'Be careful.' }]);
    const written = await generateSkill(input(0, ['task-p-t1']), deps);
    expect(written).toMatchObject({
      writtenBy: 'distilled',
      distilledBecause: expect.stringContaining('skill writer reply is not JSON'),
    });
    const stored = parseSkill(await readFile(written.path, 'utf8'));
    expect(stored.success && stored.data).toMatchObject({
      writtenBy: 'distilled',
      whenItApplies: 'Fix the cache key',
      whatToDo: expect.stringContaining('expand_dependency_context'),
    });
  });

  it('distils a skill from the pattern, the evidence and the tasks when no model is set or the script has no turn', async () => {
    const { input, deps } = await setUp([]);
    const failures = [1, 2].map((n) => ({
      workflowId: `task-p-t${n}`,
      taskId: `t${n}`,
      attempt: 1,
      description: 'Fix the cache key',
      failureClass: 'code_defect',
      reason: 'tests failed',
      evidence: `collected 3 items\nE       ImportError: cannot import name 'key_for' (case ${n})\n1 failed`,
    }));
    const unset = await generateSkill(
      { ...input(0, ['task-p-t1', 'task-p-t2']), modelSpec: undefined, failures },
      deps,
    );
    expect(unset).toMatchObject({ writtenBy: 'distilled', distilledBecause: 'no skill-writer model is set' });
    const text = await readFile(unset.path, 'utf8');
    expect(text).toContain('written_by: distilled');
    expect(text).toContain("- E       ImportError: cannot import name 'key_for' (case 1)");
    expect(text).toContain('- t2 (task-p-t2, attempt 1)');
    expect(text).not.toContain('collected 3 items');
    const noTurn = await generateSkill(input(0, ['task-p-t3']), deps);
    expect(noTurn.distilledBecause).toMatch(/model problem: .*no skillWriter turn left/);
  });

  it('replaces a distilled skill with a model-written one, and never the reverse', async () => {
    const { input, deps } = await setUp([reply('Fixing cache keys')]);
    const distilled = await generateSkill({ ...input(0, ['task-p-t1']), modelSpec: undefined }, deps);
    const model = await generateSkill({ ...input(0, ['task-p-t2']), existing: distilled.skill }, deps);
    expect(model.path).toBe(distilled.path);
    const afterModel = parseSkill(await readFile(model.path, 'utf8'));
    expect(afterModel.success && afterModel.data).toMatchObject({
      writtenBy: 'model',
      whenItApplies: 'Fixing cache keys',
      sourceWorkflowIds: ['task-p-t1', 'task-p-t2'],
    });
    await generateSkill({ ...input(0, ['task-p-t3']), modelSpec: undefined, existing: model.skill }, deps);
    const afterDistil = parseSkill(await readFile(model.path, 'utf8'));
    expect(afterDistil.success && afterDistil.data).toMatchObject({
      writtenBy: 'model',
      whenItApplies: 'Fixing cache keys',
      sourceWorkflowIds: ['task-p-t1', 'task-p-t2', 'task-p-t3'],
    });
  });
});

describe('the skill writer’s model settings', () => {
  it('sends the registry version’s maxTokens and temperature, as every other role does', async () => {
    const { startLocalModelServer, chatReply } = await import('../models/support/local-model-server.js');
    const server = await startLocalModelServer([
      { body: chatReply(JSON.stringify({ whenItApplies: 'Fixing keys', whatToDo: 'Read it.' })) },
    ]);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
    const registry = path.join(dir, 'registry.json');
    const version = (parameters: object) => ({ prompt: 'builtin', parameters });
    await writeFile(
      registry,
      JSON.stringify({
        coder: { champion: 'c', versions: { c: version({}) } },
        reviewer: { champion: 'r', versions: { r: version({}) } },
        judge: { champion: 'j', versions: { j: version({}) } },
        skillWriter: { champion: 's', versions: { s: version({ maxTokens: 300, temperature: 0.4 }) } },
      }),
    );
    const saved = { ...process.env };
    process.env.TASKLOOP_AGENTS_FILE = registry;
    process.env.OPENAI_BASE_URL = `${server.url}/v1`;
    try {
      const { input, deps } = await setUp([]);
      await generateSkill({ ...input(0, ['task-p-t1']), modelSpec: 'openai:writer' }, deps);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.body).toMatchObject({ model: 'writer', max_tokens: 300, temperature: 0.4 });
    } finally {
      process.env = saved;
      await server.close();
    }
  });
});
