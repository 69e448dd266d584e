import { describe, expect, it } from 'vitest';
import { classifyCause, type FailureCause } from '../../../domain/failure-causes.js';
import { classifyRepeatedTimeout, TIMEOUT_RERUNS } from '../../../domain/repeated-timeout.js';

const timeout: FailureCause = { kind: 'TestTimeout', message: 'tests did not finish within 3000 ms' };

describe('classifyRepeatedTimeout', () => {
  it('leaves a first timeout to the table: an environment problem, re-run', () => {
    const classified = classifyCause(timeout, 'test');
    expect(classifyRepeatedTimeout(timeout, classified, 0)).toEqual({ cause: timeout, classified });
    expect(classified).toEqual({ failureClass: 'environment_problem', retry: 'rerun_node' });
  });

  it('makes a timeout after the re-run a code defect for a new attempt, saying it hung each time', () => {
    const { cause, classified } = classifyRepeatedTimeout(timeout, classifyCause(timeout, 'test'), TIMEOUT_RERUNS);
    expect(classified).toEqual({ failureClass: 'code_defect', retry: 'new_attempt' });
    expect(cause).toMatchObject({ kind: 'TestTimeout', details: { runs: 2 } });
    expect(cause.message).toBe(
      'tests did not finish within 3000 ms (timed out in each of 2 runs: the code hangs, not the machine)',
    );
  });

  it('leaves other re-run causes as they are', () => {
    const refused: FailureCause = { kind: 'ConnectionRefused', message: 'connection refused' };
    const classified = classifyCause(refused, 'test');
    expect(classifyRepeatedTimeout(refused, classified, 3)).toEqual({ cause: refused, classified });
  });
});
