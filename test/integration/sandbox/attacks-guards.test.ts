// The attack suite, part three (issue 51): a run that hides its failure by removing pytest's report and exiting 0.
import { describe, expect, it } from 'vitest';
import { useTestTemporal } from '../support/temporal.js';
import { git } from '../support/tasks.js';
import { guardTurns } from './attack-guard-files.js';
import { causeOf, runAttack } from './attack-support.js';

describe('the attack suite: proofs and guards', () => {
  const t = useTestTemporal('attack-guards');

  it('a run that deleted its JUnit report and exited 0 is no pass: nothing committed, the task FAILED naming why', async () => {
    const forged = await runAttack(t, guardTurns.forgedPass());

    expect(forged.outcome.status).toBe('FAILED');
    expect(causeOf(forged.outcome)).toBe('TestRunUnproven');
    expect(forged.outcome.attempts[0]?.test).toMatchObject({ outcome: 'error', exitCode: 0 });
    expect(forged.outcome.attempts[0]?.failure?.reason).toContain('left no JUnit report');
    expect(forged.outcome.commit).toBeUndefined();
    expect(await git(forged.repo, 'branch', '--list', forged.branch)).toBe('');
  });
});
