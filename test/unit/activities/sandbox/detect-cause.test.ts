import { describe, expect, it } from 'vitest';
import { detectRunCause, type CauseFacts } from '../../../../activities/sandbox/detect-cause.js';
import { defaultLimits } from '../../../../activities/sandbox/policy.js';

const facts = (overrides: Partial<CauseFacts> = {}): CauseFacts => ({
  policy: { mode: 'bwrap', network: false, limits: defaultLimits },
  timedOut: false,
  timeoutMs: 60_000,
  outputTooLarge: false,
  outputTail: '',
  ...overrides,
});

describe('detectRunCause', () => {
  it('names a refused write outside the worktree', () => {
    expect(detectRunCause(facts({ outputTail: "OSError: [Errno 30] Read-only file system: '/etc/x'" }))).toMatchObject({
      kind: 'SandboxDenied',
      message: 'sandbox: write outside the worktree refused',
    });
  });

  it('names refused network access only when the task has no network', () => {
    const tail = 'ConnectionRefusedError: [Errno 111] Connection refused';
    expect(detectRunCause(facts({ outputTail: tail }))?.message).toContain('sandbox: network access refused');
    expect(
      detectRunCause(facts({ outputTail: tail, policy: { mode: 'bwrap', network: true, limits: defaultLimits } })),
    ).toBeUndefined();
  });

  it('names every resource limit the output shows, with its size', () => {
    const cause = detectRunCause(
      facts({
        outputTail:
          'MemoryError\nBlockingIOError: [Errno 11] Resource temporarily unavailable\nOSError: [Errno 27] File too large',
      }),
    );
    expect(cause).toMatchObject({ kind: 'ResourceLimit' });
    expect(cause?.message).toBe(
      `resource limit: memory (address space ${defaultLimits.memoryMb} MB), processes (${defaultLimits.processes}), file size (${defaultLimits.fileSizeMb} MB)`,
    );
  });

  it("names the whole run's memory limit when the kernel killed a process of the run at it", () => {
    expect(detectRunCause(facts({ oomKills: 2, signal: 'SIGKILL' }))).toMatchObject({
      kind: 'ResourceLimit',
      message: `resource limit: memory of the whole run (${defaultLimits.memoryMb} MB: 2 process(es) killed out of memory)`,
    });
    expect(detectRunCause(facts({ oomKills: 0 }))).toBeUndefined();
  });

  it('puts the timeout and an output overflow first: they stopped the run', () => {
    expect(detectRunCause(facts({ timedOut: true, outputTail: 'MemoryError' }))?.kind).toBe('TestTimeout');
    expect(detectRunCause(facts({ outputTooLarge: true, outputTail: 'Read-only file system' }))?.kind).toBe(
      'OutputTooLarge',
    );
  });

  it('says nothing of sandbox refusals in none mode or for ordinary failures', () => {
    expect(
      detectRunCause(
        facts({ policy: { mode: 'none', network: false, limits: defaultLimits }, outputTail: 'Read-only file system' }),
      ),
    ).toBeUndefined();
    expect(detectRunCause(facts({ outputTail: 'assert 6 == 5' }))).toBeUndefined();
  });
});
