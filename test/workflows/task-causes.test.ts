// Every row of the cause table (domain/cause-table.ts), raised by a stub at the first node it names: the task does what
// the row's retry kind says (rerun the node, a new attempt, or fail with the row's class as the recommendation).
import { describe, expect, it } from 'vitest';
import { causeTable, classTable, type CauseRow, type FailureCause } from '../../domain/failure-causes.js';
import { failureClassRules } from '../../domain/failure-class.js';
import { taskNodes, type TaskNode } from '../../domain/records.js';
import { useStubServer } from './support/environment.js';
import {
  activityFails,
  asDefault,
  coderFinished,
  judgeModelPasses,
  judgeModelRejects,
  reviewPassed,
  testsFailedWith,
  testsPassed,
  testsRefused,
  type NodeName,
  type StubScript,
} from './support/stubs.js';
import { outcomeOf, startStubTask, stubSpec } from './support/tasks.js';

interface Injection {
  node: TaskNode & NodeName;
  script: StubScript;
}

/** The row's cause, failing once at the first node the table names for it; the next call passes. */
function inject(row: CauseRow & { nodes: readonly (TaskNode & NodeName)[] }): Injection {
  // Free text read by word rules: no word here matches a rule, so the row's own class stands.
  const message = `the change does not do what was asked (${row.kind})`;
  const cause: FailureCause = { kind: row.kind, message, ...(row.rule ? { rule: row.rule } : {}) };
  const finding = { rule: row.rule ?? `${row.kind === 'ReviewFinding' ? 'model_review' : 'model_judge'}`, message };
  const node = row.nodes[0]!;
  // The review's path rules refuse a change at the test node, before its tests run.
  if (row.kind === 'ReviewFinding' && node === 'test')
    return { node, script: { test: [testsRefused([finding]), testsPassed] } };
  if (row.kind === 'ReviewFinding')
    return { node, script: { review: [{ ...reviewPassed, passed: false, findings: [finding] }, reviewPassed] } };
  if (row.kind === 'JudgeFinding')
    return {
      node,
      script: {
        judge: [judgeModelRejects([finding]), judgeModelPasses],
      },
    };
  // An activity throws it: the workflow reads the cause from the failure's type (the row's first one).
  const failureType = row.failureTypes?.[0];
  if (failureType !== undefined || (node !== 'code' && node !== 'test'))
    return { node, script: { [node]: [activityFails(failureType ?? row.kind, message), asDefault] } as StubScript };
  if (node === 'code')
    return {
      node,
      script: { code: [{ ...coderFinished, status: 'model_error', reason: message, cause }, coderFinished] },
    };
  return { node, script: { test: [testsFailedWith(cause), testsPassed] } };
}

const isTaskNode = (node: string): node is TaskNode & NodeName => (taskNodes as readonly string[]).includes(node);
// HostLost is raised by Temporal itself (schedule-to-start timeout); task-hosts.test.ts covers it. Rows raised by the
// learning and eval workflows' activities never reach a task.
const rows = causeTable
  .filter((row) => row.kind !== 'HostLost')
  .flatMap((row) => {
    const nodes = row.nodes.filter(isTaskNode);
    return nodes.length === 0 ? [] : [{ ...row, nodes }];
  });

const server = useStubServer();

describe('every cause in the table leads to its retry kind', () => {
  it.each(rows.map((row) => [`${row.kind}${row.rule ? `/${row.rule}` : ''}`, row] as const))(
    '%s',
    async (_name, row) => {
      const injection = inject(row);
      await server.withStubs(injection.script, async (run) => {
        // Every role with a model: each node is an activity of its own, so a failure thrown there is that node's.
        const models = {
          coder: 'scripted:coder.json',
          reviewer: 'scripted:reviewer.json',
          judge: 'scripted:judge.json',
        };
        const outcome = await outcomeOf(await startStubTask(run, stubSpec(run, { models })));
        const first = outcome.attempts[0];
        expect(first?.failure?.node).toBe(injection.node);
        expect(first?.failure?.cause?.kind).toBe(row.kind);
        expect(first?.failure?.failureClass).toBe(row.failureClass);
        const calls = run.stubs.calls[injection.node].length;
        switch (row.retry) {
          case 'rerun_node':
            expect(outcome.status).toBe('COMPLETED');
            expect(outcome.attempts).toHaveLength(1);
            expect(first?.envRetries).toBe(1);
            expect(calls).toBe(2);
            break;
          case 'new_attempt':
            expect(outcome.status).toBe('COMPLETED');
            expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['REWORK_REQUIRED', 'PASSED']);
            break;
          case 'fail':
            expect(outcome.status).toBe('FAILED');
            expect(outcome.recommendation).toBe(row.failureClass);
            expect(outcome.attempts).toHaveLength(1);
            expect(calls).toBe(1);
            break;
          default:
            throw new Error(`no row of the table should have retry kind ${row.retry}`);
        }
      });
    },
  );
});

describe("a change the review's path rules refused", () => {
  it('fails the test node with their finding, the review never called; the next attempt is told why', async () => {
    const finding = { rule: 'test_file_edited', file: 'tests/test_calc.py', message: 'a test file was edited' };
    await server.withStubs({ test: [testsRefused([finding]), testsPassed] }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run));
      expect(outcome.status).toBe('COMPLETED');
      const failure = outcome.attempts[0]?.failure;
      expect(failure).toMatchObject({ node: 'test', failureClass: 'replan' });
      expect(failure?.cause).toMatchObject({ kind: 'ReviewFinding', rule: 'test_file_edited' });
      expect(failure?.reason).toBe(
        "tests not run: the review's path rules refused the change: test_file_edited: a test file was edited",
      );
      // One review: the second attempt's. The refused change never reached it.
      expect(run.stubs.calls.review).toHaveLength(1);
      expect(run.stubs.calls.code[1]?.previousAttempts[0]?.reviewFindings).toEqual([finding]);
      const events = run.stubs.calls.events.filter((event) => event.type === 'TEST_FAILED');
      expect(events.map((event) => event.data)).toMatchObject([{ refused: [finding] }]);
    });
  });
});

describe('evidence that the task is too big fails it as split_task', () => {
  it('the coder ran out of steps having changed files', async () => {
    const outOfSteps = { ...coderFinished, status: 'max_steps' as const, reason: 'used all 30 steps' };
    await server.withStubs({ code: outOfSteps }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run));
      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('split_task');
      expect(outcome.attempts).toHaveLength(1);
    });
  });

  it('tests fail across five modules or more', async () => {
    const modules = ['a', 'b', 'c', 'd', 'e'].map((name) => ({
      id: `tests/test_${name}.py::test_it`,
      outcome: 'failed' as const,
    }));
    const spread = {
      ...testsFailedWith({ kind: 'TestsFailed', message: 'tests failed in five modules' }),
      cause: undefined,
      cases: modules,
      counts: { total: 5, passed: 0, failed: 5, errors: 0, skipped: 0 },
    };
    await server.withStubs({ test: spread }, async (run) => {
      const outcome = await outcomeOf(await startStubTask(run));
      expect(outcome.status).toBe('FAILED');
      expect(outcome.recommendation).toBe('split_task');
      expect(outcome.attempts[0]?.failure?.cause?.details?.failingModules).toBe(5);
    });
  });
});

describe('a verdict in words picks the class, and the class its retry kind', () => {
  // intent_ambiguity waits for a hint: task-retries.test.ts answers it.
  const rules = failureClassRules.filter((rule) => classTable[rule.failureClass].retry !== 'wait_for_hint');

  it.each(rules.map((rule) => [rule.failureClass, rule.phrases[0]!] as const))(
    '%s ("%s")',
    async (failureClass, phrase) => {
      const finding = { rule: 'model_judge', message: `the attempt shows ${phrase} here` };
      const script: StubScript = {
        judge: [judgeModelRejects([finding]), judgeModelPasses],
      };
      await server.withStubs(script, async (run) => {
        const spec = stubSpec(run, { models: { coder: 'scripted:coder.json', judge: 'scripted:judge.json' } });
        const outcome = await outcomeOf(await startStubTask(run, spec));
        expect(outcome.attempts[0]?.failure?.failureClass).toBe(failureClass);
        const retry = classTable[failureClass].retry;
        if (retry === 'fail') expect(outcome).toMatchObject({ status: 'FAILED', recommendation: failureClass });
        else expect(outcome.status).toBe('COMPLETED');
        expect(outcome.attempts).toHaveLength(retry === 'new_attempt' ? 2 : 1);
        expect(run.stubs.calls.judge).toHaveLength(retry === 'fail' ? 1 : 2);
      });
    },
  );
});
