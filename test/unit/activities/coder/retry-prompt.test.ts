// A retry that differs from the attempt before it (issue 52: at temperature 0 a small model replayed attempt 1, and
// three times copied the retry section's heading "Attempt 1: REWORK_REQUIRED, failure class: model_problem" as a
// tool name): the prompt says what was tried and what not to repeat, and the request samples warmer with a seed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCoderMessages, type AttemptSummary } from '../../../../activities/coder/context.js';
import { createModelProvider } from '../../../../activities/models/router.js';
import { samplingForAttempt } from '../../../../domain/retry-sampling.js';
import { chatReply, startLocalModelServer, type LocalModelServer } from '../models/support/local-model-server.js';

const noOp: AttemptSummary = {
  attempt: 1,
  status: 'REWORK_REQUIRED',
  failureClass: 'model_problem',
  failureReason: 'no progress: the same reply was sent 3 turns in a row (```json { "name": "fix_calc.add" …)',
  coderSummary: '',
  changedFiles: [],
  reviewFindings: [],
  judgeFindings: [],
};

const userText = (previousAttempts: AttemptSummary[]) =>
  buildCoderMessages({ goal: 'Fix calc.add', repoMap: 'calc.py', previousAttempts, secretValues: [] })[1].content;

describe('the retry prompt', () => {
  it('says what the attempt changed and what not to repeat, under a heading that is a sentence', () => {
    const text = userText([noOp]);
    expect(text).toContain('## What attempt 1 did (ended REWORK_REQUIRED, model_problem)');
    expect(text).not.toMatch(/Attempt 1: REWORK_REQUIRED, failure class: model_problem/);
    expect(text).toContain('Files it changed: none (it changed no file)');
    expect(text).toContain(
      'Do not repeat:\n- ending without changing a file: make the change the goal asks for with replace_in_file\n' +
        '- the same call or reply again: its answer will not change',
    );
  });

  it('names a change whose tests still failed as one not to make again', () => {
    const failed: AttemptSummary = {
      ...noOp,
      failureReason: 'tests failed',
      changedFiles: ['calc.py'],
      test: {
        counts: { total: 1, passed: 0, failed: 1, errors: 0, skipped: 0 },
        stdoutExcerpt: '',
        stderrExcerpt: '',
      },
    };
    expect(userText([failed])).toContain('- the same change to calc.py: the tests still failed with it');
  });
});

describe('the retry request', () => {
  let server: LocalModelServer;
  beforeEach(async () => {
    server = await startLocalModelServer();
  });
  afterEach(() => server.close());

  it('samples warmer with a seed on a retry, and as the version says on the first attempt', async () => {
    server.push({ body: chatReply('a') }, { body: chatReply('b') });
    const version = { temperature: 0, maxTokens: 256 };
    for (const earlier of [0, 1]) {
      const provider = await createModelProvider('openai:qwen2.5-coder-0.5b', {
        role: 'coder',
        cwd: '/',
        env: { OPENAI_BASE_URL: `${server.url}/v1` },
        parameters: samplingForAttempt(version, earlier),
      });
      await provider.complete({ role: 'coder', messages: [{ role: 'user', content: 'fix' }], tools: [] });
    }
    expect(server.requests[0]?.body).toMatchObject({ temperature: 0, max_tokens: 256 });
    expect(server.requests[0]?.body.seed).toBeUndefined();
    expect(server.requests[1]?.body).toMatchObject({ temperature: 0.4, seed: 2, max_tokens: 256 });
  });
});
