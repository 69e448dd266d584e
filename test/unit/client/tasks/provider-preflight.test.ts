import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleVariable } from '../../../../activities/models/provider-env.js';
import { UsageError } from '../../../../client/cli-errors.js';
import {
  findProviderProblems,
  providerVariables,
  refuseUnreachableProviders,
} from '../../../../client/tasks/provider-preflight.js';
import { findFreePort } from '../../../../platform/server/ports.js';

describe('the provider preflight before a run starts', () => {
  let server: net.Server;
  let openPort = 0;
  beforeAll(async () => {
    server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    openPort = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads the same variables the worker does', () => {
    const names = providerVariables('openai', 'skillWriter');
    expect(names.apiKey).toEqual([roleVariable('skillWriter', 'OPENAI_API_KEY'), 'OPENAI_API_KEY']);
    expect(names.baseUrl).toEqual([roleVariable('skillWriter', 'OPENAI_BASE_URL'), 'OPENAI_BASE_URL']);
  });

  it('needs nothing for scripted models, and passes a key by its role variable or the vendor one', async () => {
    const models = { coder: 'openai:gpt-4o', judge: 'anthropic:claude-sonnet-4-5', reviewer: 'scripted:r.json' };
    expect(await findProviderProblems(models, { TASKLOOP_CODER_OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k2' })).toEqual(
      [],
    );
  });

  it('names the variable to set for each role without a key', async () => {
    const problems = await findProviderProblems({ coder: 'openai:gpt-4o', judge: 'anthropic:claude' }, {});
    expect(problems.map((problem) => [problem.role, problem.message])).toEqual([
      [
        'coder',
        'no key: set OPENAI_API_KEY (or TASKLOOP_CODER_OPENAI_API_KEY for this role only), or OPENAI_BASE_URL for a local server that needs no key',
      ],
      [
        'judge',
        'no key: set ANTHROPIC_API_KEY (or TASKLOOP_JUDGE_ANTHROPIC_API_KEY for this role only), or ANTHROPIC_BASE_URL for a local server that needs no key',
      ],
    ]);
  });

  it('accepts a local base URL that answers, and refuses one that does not, without echoing its credentials', async () => {
    expect(
      await findProviderProblems({ coder: 'openai:gemma' }, { OPENAI_BASE_URL: `http://127.0.0.1:${openPort}/v1` }),
    ).toEqual([]);
    const closed = await findFreePort();
    const [problem] = await findProviderProblems(
      { coder: 'openai:gemma' },
      { OPENAI_BASE_URL: `http://me:s3cret@127.0.0.1:${closed}/v1` },
    );
    expect(problem?.message).toBe(
      `no key, and OPENAI_BASE_URL (http://127.0.0.1:${closed} does not answer: connection refused); start that model server, fix OPENAI_BASE_URL, or set OPENAI_API_KEY`,
    );
    expect(problem?.message).not.toContain('s3cret');
  });

  it('refuses with exit 2 once per role and model across tasks, naming the way out when workers run elsewhere', async () => {
    const error = await refuseUnreachableProviders('schedule', [{ coder: 'openai:a' }, { coder: 'openai:a' }], {
      env: {},
    }).catch((caught: unknown) => caught as Error);
    expect(error).toBeInstanceOf(UsageError);
    const lines = (error as Error).message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^taskloop schedule: models\.coder "openai:a": no key: set OPENAI_API_KEY/);
    expect(lines[1]).toContain('--skip-provider-check');
  });
});
