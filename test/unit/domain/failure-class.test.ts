import { describe, expect, it } from 'vitest';
import { classifyFailure, failureClasses } from '../../../domain/failure-class.js';
import type { TaskNode } from '../../../domain/records.js';

const classify = (reason: string, node: TaskNode = 'test') => classifyFailure({ node, reason });

describe('classifyFailure rules', () => {
  it('reads budget exhaustion in prose and as the class name', () => {
    expect(classify('budget exhausted: 40 model calls used')).toBe('budget_exhausted');
    expect(classify('stopped: budget_exhausted')).toBe('budget_exhausted');
  });

  it('reads a missing capability', () => {
    expect(classify('Unsupported operation: rename_file', 'code')).toBe('missing_capability');
    expect(classify('missing capability to run docker', 'code')).toBe('missing_capability');
  });

  it('reads context problems', () => {
    expect(classify('the coder lacked context about the cache module', 'code')).toBe('context_problem');
    expect(classify('schema migration was not applied')).toBe('context_problem');
  });

  it('reads environment problems, including the extended words', () => {
    for (const reason of [
      'pytest timed out after 600000 ms',
      'timeout after 60000 ms',
      'provider returned 503',
      'broken environment: no venv',
      'python3: command not found',
      'no tests collected',
      'connect ECONNREFUSED 127.0.0.1:8000: connection refused',
      'spawn pytest ENOENT',
      'worker lost during the test run',
    ]) {
      expect(classify(reason), reason).toBe('environment_problem');
    }
  });

  it('reads model problems', () => {
    expect(classify('model returned malformed JSON', 'code')).toBe('model_problem');
    expect(classify('the model stopped answering', 'code')).toBe('model_problem');
    expect(classify('coder status model_error: scripted turns ran out', 'code')).toBe('model_problem');
  });

  it('reads intent ambiguity', () => {
    expect(classify('the goal is ambiguous: which cache?', 'code')).toBe('intent_ambiguity');
  });

  it('asks for a replan after a review or judge failure with no word match', () => {
    expect(classify('diff edits files outside scope', 'review')).toBe('replan');
    expect(classify('acceptance tests did not pass', 'judge')).toBe('replan');
  });

  it('calls any other failure with no word match a code defect, or the given fallback', () => {
    expect(classify('3 tests failed', 'test')).toBe('code_defect');
    expect(classify('', 'code')).toBe('code_defect');
    expect(classifyFailure({ node: 'judge', reason: 'no words here', fallback: 'model_problem' })).toBe(
      'model_problem',
    );
  });

  it('returns only declared classes', () => {
    expect(failureClasses).toContain(classify('anything at all'));
  });
});

describe('classifyFailure precedence', () => {
  it('puts budget exhaustion before every other rule', () => {
    expect(classify('budget exhausted while the model timed out on an ambiguous context')).toBe('budget_exhausted');
  });

  it('puts a missing capability before context', () => {
    expect(classify('unsupported operation in this context')).toBe('missing_capability');
  });

  it('puts context before environment, and environment before model', () => {
    expect(classify('context window overflow caused a timeout')).toBe('context_problem');
    expect(classify('model provider timed out')).toBe('environment_problem');
  });

  it('puts model before ambiguity', () => {
    expect(classify('the model found the request ambiguous')).toBe('model_problem');
  });

  it('lets a word rule beat the node rule at review', () => {
    expect(classify('review timed out', 'review')).toBe('environment_problem');
  });

  it('reads findings only when the reason matched nothing', () => {
    const findings = [{ rule: 'model_review', message: 'the goal is ambiguous about rounding' }];
    expect(classifyFailure({ node: 'review', reason: 'review rejected the change', findings })).toBe(
      'intent_ambiguity',
    );
    expect(classifyFailure({ node: 'review', reason: 'review timed out', findings })).toBe('environment_problem');
  });
});

describe('classifyFailure word collisions', () => {
  it.each([
    ['a pytest node id', 'tests failed: tests/test_model.py::test_model_save'],
    ['an identifier after an exception name', 'AssertionError in test_context_manager'],
    ['an assert expression', 'assert migration_id == 3'],
    ['a path', 'failed to import src/provider/config.py'],
    ['a backtick code span', 'expected `model.save()` to write the file'],
    ['a quoted string', "KeyError: 'context'"],
    ['a double-quoted string', 'got "timeout" instead of "ok"'],
    ['a camelCase identifier', 'ModelError raised by saveModel'],
    ['a dotted attribute', 'self.model is None'],
    ['a pytest E line', 'test failed\nE   assert context.user == "bob"\nE   timeout not set'],
    ['a command-line flag', 'pytest exited 1 with --timeout=5'],
    ['a word inside a longer word', 'remodeling failed; see environmentalist notes'],
  ])('does not read a class word inside %s', (_label, reason) => {
    expect(classify(reason)).toBe('code_defect');
  });

  it('still reads prose words next to code', () => {
    expect(classify('tests/test_model.py::test_save timed out')).toBe('environment_problem');
    expect(classify("the model's patch broke tests/test_io.py")).toBe('model_problem');
    expect(classify('(context) missing for `cache_key`')).toBe('context_problem');
    expect(classify('Timeouts: 3')).toBe('environment_problem');
  });

  it('applies the same rules to findings', () => {
    const findings = [{ rule: 'python_syntax', message: 'invalid syntax in src/model.py near `context =`' }];
    expect(classifyFailure({ node: 'review', reason: 'policy checks failed', findings })).toBe('replan');
  });
});
