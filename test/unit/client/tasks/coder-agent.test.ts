// The coder version each command records, and why: run's --agent and config, a tasks file's task and defaults, an
// eval arm's model default; shown by status and show.
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTaskloopConfig } from '../../../../client/config.js';
import { formatOutcome, formatState } from '../../../../client/output/task-report.js';
import { readAgentRegistry, withCoderChoice } from '../../../../client/tasks/coder-agent.js';
import { parseRunFlags } from '../../../../client/tasks/run-flags.js';
import { loadTasksFile } from '../../../../client/tasks-file/load.js';
import { chooseCoderVersion } from '../../../../domain/agent-choice.js';
import { planArms } from '../../../../domain/eval/arms.js';
import { parseTaskSpec, type TaskSpec } from '../../../../domain/task-spec.js';
import { coderAgentOfSpec, outcomeOfState, type TaskState } from '../../../../domain/task-state.js';
import { buildTrajectory } from '../../../../domain/trajectory/trajectory.js';
import { formatTrajectory } from '../../../../client/show/format-text.js';

const spec = (coder: string, extra: Record<string, unknown> = {}): TaskSpec => {
  const parsed = parseTaskSpec({ id: 't', repo: '/r', goal: 'fix add', models: { coder }, ...extra });
  if (!parsed.success) throw new Error(parsed.error);
  return parsed.data;
};

describe('withCoderChoice (run, schedule)', () => {
  it('records the model default with why, and leaves the champion to the worker', async () => {
    const registry = await readAgentRegistry('run', {});
    const local = withCoderChoice('run', spec('local:qwen2.5-coder-0.5b'), registry, {});
    expect(local.agents).toEqual({ coder: 'coder-small-text' });
    expect(local.agentsChosenBy).toEqual({ coder: 'default for local models' });
    const hosted = withCoderChoice('run', spec('openai:gpt-4o-mini'), registry, {});
    expect(hosted.agents).toBeUndefined();
    expect(hosted.agentsChosenBy).toBeUndefined();
  });

  it('--agent wins over the task and the config; the task over the config; an unknown one is refused', async () => {
    const registry = await readAgentRegistry('run', {});
    const own = spec('local:qwen2.5-coder-0.5b', { agents: { coder: 'coder-small' } });
    expect(withCoderChoice('run', own, registry, { flag: 'coder-1', config: 'coder-evidence' })).toMatchObject({
      agents: { coder: 'coder-1' },
      agentsChosenBy: { coder: '--agent' },
    });
    expect(withCoderChoice('run', own, registry, { config: 'coder-evidence' })).toMatchObject({
      agents: { coder: 'coder-small' },
      agentsChosenBy: { coder: "the task's agents.coder" },
    });
    expect(withCoderChoice('run', spec('openai:gpt-4o'), registry, { config: 'coder-evidence' })).toMatchObject({
      agents: { coder: 'coder-evidence' },
      agentsChosenBy: { coder: 'taskloop.config.json agents.coder' },
    });
    expect(() => withCoderChoice('run', own, registry, { flag: 'coder-2' })).toThrow(
      /^taskloop run: agents\.coder: no coder version "coder-2" \(from --agent\); known versions: coder-1, coder-1-no-tests/,
    );
  });

  it("run reads --agent and the config file's agents.coder", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'taskloop-agent-config-'));
    await writeFile(path.join(folder, 'taskloop.config.json'), JSON.stringify({ agents: { coder: 'coder-small' } }));
    const config = await loadTaskloopConfig(folder, {});
    const argv = ['--repo', 'r', '--goal', 'g', '--model', 'openai:gpt-4o-mini', '--agent', 'coder-evidence'];
    expect(parseRunFlags(argv, folder, {}, config).coderChoice).toEqual({
      flag: 'coder-evidence',
      config: 'coder-small',
    });
    await writeFile(path.join(folder, 'taskloop.config.json'), JSON.stringify({ agents: { coder: 3 } }));
    await expect(loadTaskloopConfig(folder, {})).rejects.toThrow(/agents\.coder: .*"agents" \{coder\}/);
  });

  it("a tasks file says whether the version is the task's or its defaults'", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'taskloop-agent-tasks-'));
    const file = path.join(folder, 'tasks.yaml');
    await writeFile(
      file,
      [
        'project: p',
        'repo: .',
        'defaults: {models: {coder: "openai:gpt-4o-mini"}, agents: {coder: coder-evidence, reviewer: reviewer-1}}',
        'tasks:',
        '  - {id: a, goal: one}',
        '  - {id: b, goal: two, agents: {coder: coder-small}}',
        '',
      ].join('\n'),
    );
    const loaded = await loadTasksFile(file);
    if (!loaded.success) throw new Error(JSON.stringify(loaded.errors));
    const [a, b] = loaded.data.tasks.map((task) => task.spec);
    expect(a?.agentsChosenBy).toEqual({ coder: "the tasks file's defaults.agents.coder" });
    expect(b?.agents).toEqual({ coder: 'coder-small', reviewer: 'reviewer-1' });
    expect(b?.agentsChosenBy).toEqual({ coder: "the task's agents.coder" });
    const registry = await readAgentRegistry('schedule', {});
    expect(withCoderChoice('schedule', b as TaskSpec, registry, {}).agentsChosenBy).toEqual({
      coder: "the task's agents.coder",
    });
  });
});

describe('eval arms', () => {
  it('an arm with no --agents runs its model default; the label says which', async () => {
    const registry = await readAgentRegistry('eval', {});
    const arms = planArms({
      models: ['local:qwen2.5-coder-1.5b', 'openai:gpt-4o-mini'],
      agents: [undefined],
      learning: [true],
      defaultAgentOf: (model) => {
        const chosen = chooseCoderVersion(registry, model, {});
        return chosen.success ? chosen.data.version : undefined;
      },
    });
    expect(arms.map((arm) => [arm.label, arm.agent])).toEqual([
      ['local:qwen2.5-coder-1.5b coder-small-text learning=on', 'coder-small-text'],
      ['openai:gpt-4o-mini champion learning=on', undefined],
    ]);
  });
});

describe('status and show say which version ran and why', () => {
  const state = (choice: TaskState['coderAgent'], agent?: string): TaskState => ({
    workflowId: 'task-default-t',
    taskId: 't',
    project: 'default',
    goal: 'fix add',
    status: 'RUNNING',
    phase: 'code',
    attempt: 1,
    paused: false,
    attempts: [
      {
        attempt: 1,
        status: 'FAILED',
        startedAt: '2026-12-07T00:00:00Z',
        envRetries: 0,
        ...(agent ? { coder: { status: 'done', summary: '', agent, changedFiles: [] } as never } : {}),
      },
    ],
    events: [],
    telemetry: { model_requests_per_task: 0 } as never,
    turnsConsumed: 0,
    ...(choice ? { coderAgent: choice } : {}),
  });

  it('prints the pinned version with its reason, and the champion by the version its attempts ran', async () => {
    const local = coderAgentOfSpec(
      withCoderChoice('run', spec('local:qwen2.5-coder-0.5b'), await readAgentRegistry('run', {}), {}),
    );
    expect(formatState(state(local))).toContain('coder version: coder-small-text (default for local models)');
    const champion = coderAgentOfSpec(spec('openai:gpt-4o-mini'));
    const closed = outcomeOfState({ ...state(champion, 'coder/coder-1'), status: 'FAILED' });
    expect(formatOutcome(closed)).toContain("coder version: coder-1 (the registry's champion)");
    const shown = formatTrajectory(buildTrajectory(closed, new Map()));
    expect(shown).toContain("coder version: coder-1 (the registry's champion)");
    expect(formatState(state(undefined))).not.toContain('coder version');
  });
});
