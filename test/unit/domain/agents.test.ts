import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  agentLabel,
  parseAgentRegistry,
  promoteChampion,
  selectAgentVersion,
  type AgentRegistry,
} from '../../../domain/agents.js';
import { agentVersionsOf } from '../../../domain/task-state.js';

const registry = (): AgentRegistry => {
  const parsed = parseAgentRegistry({
    coder: {
      champion: 'c1',
      versions: { c1: {}, c2: { prompt: 'prompts/c2.md', model: 'openai:gpt-4o', parameters: { temperature: 0.3 } } },
    },
  });
  if (!parsed.success) throw new Error(parsed.error);
  return parsed.data;
};

describe('agent versions', () => {
  it('selects the champion, or a pinned version, with its prompt, model and parameters', () => {
    expect(selectAgentVersion(registry(), 'coder')).toEqual({
      success: true,
      data: {
        role: 'coder',
        version: 'c1',
        prompt: 'builtin',
        parameters: {},
        capabilities: ['READ_REPOSITORY', 'INVESTIGATE_WORKTREE', 'WRITE_WORKTREE', 'RUN_TESTS'],
      },
    });
    expect(selectAgentVersion(registry(), 'coder', 'c2')).toMatchObject({
      success: true,
      data: { version: 'c2', prompt: 'prompts/c2.md', model: 'openai:gpt-4o', parameters: { temperature: 0.3 } },
    });
  });

  it('falls back to the built-in version for a role the registry leaves out, and names unknown versions', () => {
    expect(selectAgentVersion(registry(), 'judge')).toMatchObject({
      success: true,
      data: { role: 'judge', version: 'builtin' },
    });
    const missing = selectAgentVersion(registry(), 'coder', 'c9');
    expect(missing).toEqual({ success: false, error: "agent coder has no version 'c9'; known versions: c1, c2" });
  });

  it('gives a version its own capabilities or its role defaults, and keeps reviewer and judge read-only', () => {
    const parsed = parseAgentRegistry({
      coder: { champion: 'ro', versions: { ro: { capabilities: ['READ_REPOSITORY'] } } },
    });
    expect(parsed.success && selectAgentVersion(parsed.data, 'coder')).toMatchObject({
      success: true,
      data: { capabilities: ['READ_REPOSITORY'] },
    });
    expect(selectAgentVersion(registry(), 'judge')).toMatchObject({
      data: { capabilities: ['READ_REPOSITORY', 'INVESTIGATE_WORKTREE'] },
    });
    const writingJudge = parseAgentRegistry({
      judge: { champion: 'j', versions: { j: { capabilities: ['READ_REPOSITORY', 'WRITE_WORKTREE'] } } },
    });
    expect(writingJudge).toEqual({
      success: false,
      error:
        'judge.versions.j.capabilities: judge is read-only; remove WRITE_WORKTREE (allowed: READ_REPOSITORY, INVESTIGATE_WORKTREE)',
    });
    expect(parseAgentRegistry({ coder: { champion: 'c', versions: { c: { capabilities: ['FLY'] } } } }).success).toBe(
      false,
    );
  });

  it('promotes a new champion as data, and refuses a version that does not exist', () => {
    const promoted = promoteChampion(registry(), 'coder', 'c2');
    expect(promoted.success && selectAgentVersion(promoted.data, 'coder')).toMatchObject({
      success: true,
      data: { version: 'c2' },
    });
    expect(promoteChampion(registry(), 'coder', 'nope').success).toBe(false);
  });

  it('refuses a registry whose champion is not one of its versions, naming the field', () => {
    const parsed = parseAgentRegistry({ reviewer: { champion: 'r2', versions: { r1: {} } } });
    expect(parsed).toEqual({ success: false, error: 'reviewer.champion: champion must name one of the versions' });
  });

  it("reads a version's first-message kind and its own tool list; a tool list without finish is refused", () => {
    const parsed = parseAgentRegistry({
      coder: {
        champion: 's',
        versions: { s: { context: 'evidence', tools: ['read_file', 'replace_in_file', 'run_tests', 'finish'] } },
      },
    });
    expect(parsed.success && selectAgentVersion(parsed.data, 'coder').success).toBe(true);
    const selected = parsed.success ? selectAgentVersion(parsed.data, 'coder') : undefined;
    expect(selected?.success && selected.data).toMatchObject({
      context: 'evidence',
      tools: ['read_file', 'replace_in_file', 'run_tests', 'finish'],
    });
    expect(parseAgentRegistry({ coder: { champion: 's', versions: { s: { tools: ['read_file'] } } } })).toEqual({
      success: false,
      error: 'coder.versions.s.tools: must include finish, or the coder cannot end its turn',
    });
    expect(parseAgentRegistry({ coder: { champion: 's', versions: { s: { context: 'tour' } } } }).success).toBe(false);
  });

  it('ships the small-model versions in agents/registry.json, valid', () => {
    const shipped = parseAgentRegistry(
      JSON.parse(readFileSync(new URL('../../../agents/registry.json', import.meta.url), 'utf8')),
    );
    expect(shipped.success).toBe(true);
    const versions = shipped.success ? (shipped.data.coder?.versions ?? {}) : {};
    expect(versions['coder-evidence']).toMatchObject({ context: 'evidence' });
    expect(versions['coder-small']).toMatchObject({
      context: 'evidence',
      tools: ['read_file', 'replace_in_file', 'run_tests', 'finish'],
      prompt: 'prompts/coder-small.md',
    });
  });

  it('labels versions and collects those an attempt used for the commit record', () => {
    expect(agentLabel({ role: 'coder', version: 'c1' })).toBe('coder/c1');
    const coder = {
      status: 'finished' as const,
      summary: '',
      changedFiles: [],
      turnsConsumed: 1,
      telemetry: {} as never,
      agent: 'coder/c1',
    };
    expect(agentVersionsOf({ attempt: 1, status: 'PASSED', startedAt: '', envRetries: 0, coder })).toEqual([
      'coder/c1',
    ]);
  });
});
