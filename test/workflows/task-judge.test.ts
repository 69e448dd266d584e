// The judge node: its rules (domain/judge.ts) run in the workflow; a judge model's verdict is the one activity of the
// node, told what the rules found, and merged there.
import { describe, expect, it } from 'vitest';
import { activitiesIn } from '../support/history-activities.js';
import { useStubServer } from './support/environment.js';
import { judgeModelPasses, judgeModelRejects } from './support/stubs.js';
import { outcomeOf, startStubTask, stubSpec } from './support/tasks.js';

const server = useStubServer();
// The stub's test run passes tests/test_calc.py::test_add and ::test_sub: this acceptance test is not among them.
const acceptanceTests = ['tests/test_calc.py::test_mul'];

describe('the judge', () => {
  it('without a judge model runs its rules in the workflow: no activity, the rule that failed is the cause', async () => {
    await server.withStubs({}, async (run) => {
      const handle = await startStubTask(run, stubSpec(run, { acceptanceTests, maxRetries: 0 }));
      const outcome = await outcomeOf(handle);
      expect(outcome.status).toBe('FAILED');
      expect(outcome.attempts[0]?.failure).toMatchObject({
        node: 'judge',
        cause: { kind: 'JudgeFinding', rule: 'acceptance_missing' },
      });
      expect(outcome.attempts[0]?.judge?.evidence).toContain('acceptance tests/test_calc.py::test_mul: missing');
      const history = (await handle.fetchHistory()).events ?? [];
      // The task-queue activities (the claim and the failure's report are local ones).
      const scheduled = activitiesIn(history).filter(({ local }) => !local);
      expect(scheduled.map(({ type }) => type)).toEqual(['runCoder', 'runTests', 'reviewChanges', 'removeWorktree']);
      expect(run.stubs.calls.judge).toHaveLength(0);
    });
  });

  it('asks a judge model with what the rules found, and merges its verdict: it passes only when both pass', async () => {
    const rejection = { rule: 'model_judge', message: 'the docstring says nothing' };
    await server.withStubs({ judge: [judgeModelRejects([rejection]), judgeModelPasses] }, async (run) => {
      const models = { coder: 'scripted:coder.json', judge: 'scripted:judge.json' };
      const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { models })));
      expect(outcome.status).toBe('COMPLETED');
      const [asked] = run.stubs.calls.judge;
      expect(asked?.checks.findings).toEqual([]);
      expect(asked?.checks.evidence[0]).toMatch(/^tests: 2 passed, 0 failed/);
      expect(asked?.test).toEqual({ counts: expect.objectContaining({ passed: 2 }), stdoutExcerpt: '2 passed' });
      expect(outcome.attempts[0]?.judge).toMatchObject({
        passed: false,
        findings: [rejection],
        agent: 'judge/judge-1',
        modelUsage: { modelSpec: 'scripted:judge.json', modelRequests: 1 },
      });
      expect(outcome.attempts[0]?.failure).toMatchObject({ node: 'judge', cause: { kind: 'JudgeFinding' } });
      expect(outcome.attempts[1]?.judge).toMatchObject({ passed: true, findings: [] });
    });
  });

  it('with a judge model still fails on its rules when the model passes the attempt', async () => {
    await server.withStubs({}, async (run) => {
      const models = { coder: 'scripted:coder.json', judge: 'scripted:judge.json' };
      const spec = stubSpec(run, { models, acceptanceTests, maxRetries: 0 });
      const outcome = await outcomeOf(await startStubTask(run, spec));
      expect(outcome.status).toBe('FAILED');
      expect(run.stubs.calls.judge[0]?.checks.findings.map((finding) => finding.rule)).toEqual(['acceptance_missing']);
      expect(outcome.attempts[0]?.judge).toMatchObject({ passed: false, agent: 'judge/judge-1' });
      expect(outcome.attempts[0]?.failure?.cause).toMatchObject({ kind: 'JudgeFinding', rule: 'acceptance_missing' });
    });
  });
});
