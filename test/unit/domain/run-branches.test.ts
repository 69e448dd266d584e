import { describe, expect, it } from 'vitest';
import { chooseRunBranch, isRunBranch, runBranchName } from '../../../domain/run-branches.js';

const p = 'taskloop/a';
const refs = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe('choosing the branch of a run', () => {
  it('names runs taskloop/<id>, then -run2, -run3, and recognises only those names', () => {
    expect([1, 2, 3].map((n) => runBranchName(p, n))).toEqual([p, `${p}-run2`, `${p}-run3`]);
    expect([p, `${p}-run2`, `${p}-run12`].every((name) => isRunBranch(p, name))).toBe(true);
    expect(
      [`${p}-run1`, `${p}-run0`, `${p}-runx`, `${p}-run2x`, `${p}x`, 'taskloop/ab'].some((n) => isRunBranch(p, n)),
    ).toBe(false);
  });

  it('takes the first name free here and on the remote', () => {
    expect(chooseRunBranch({ preferred: p, sha: 's', local: refs({}) })).toEqual({ name: p, create: true });
    expect(chooseRunBranch({ preferred: p, sha: 's', local: refs({ [p]: 'x' }) })).toEqual({
      name: `${p}-run2`,
      create: true,
    });
    // Another host pushed taskloop/a (and -run2): this host's clone has never seen them.
    expect(
      chooseRunBranch({ preferred: p, sha: 's', local: refs({}), remote: refs({ [p]: 'x', [`${p}-run2`]: 'y' }) }),
    ).toEqual({ name: `${p}-run3`, create: true });
    expect(
      chooseRunBranch({ preferred: p, sha: 's', local: refs({ [`${p}-run2`]: 'y' }), remote: refs({ [p]: 'x' }) }),
    ).toEqual({ name: `${p}-run3`, create: true });
  });

  it('finds the branch a retried commit already made, here or on the remote, and never one the remote moved', () => {
    expect(chooseRunBranch({ preferred: p, sha: 's', local: refs({ [p]: 'x', [`${p}-run2`]: 's' }) })).toEqual({
      name: `${p}-run2`,
      create: false,
    });
    // Pushed before: the remote holds it, this clone lost the branch (a new clone): recreate the same name.
    expect(chooseRunBranch({ preferred: p, sha: 's', local: refs({}), remote: refs({ [p]: 's' }) })).toEqual({
      name: p,
      create: true,
    });
    // This clone made taskloop/a, but another host's push got there first: the commit moves on to -run2.
    expect(chooseRunBranch({ preferred: p, sha: 's', local: refs({ [p]: 's' }), remote: refs({ [p]: 'x' }) })).toEqual({
      name: `${p}-run2`,
      create: true,
    });
  });
});
