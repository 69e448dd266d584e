import { describe, expect, it } from 'vitest';
import {
  defaultLimits,
  resolveSandboxMode,
  resolveWorkerLimits,
  sandboxPolicyFor,
} from '../../../../activities/sandbox/policy.js';

describe('sandbox policy', () => {
  it('is bwrap unless the flag or TASKLOOP_SANDBOX opts out, and names the choices for a wrong value', () => {
    expect(resolveSandboxMode(undefined, {})).toBe('bwrap');
    expect(resolveSandboxMode(undefined, { TASKLOOP_SANDBOX: 'none' })).toBe('none');
    expect(resolveSandboxMode('bwrap', { TASKLOOP_SANDBOX: 'none' })).toBe('bwrap');
    expect(() => resolveSandboxMode('docker', {})).toThrow(
      '--sandbox="docker" is not a sandbox mode: use bwrap (the default) or none',
    );
  });

  it('reads worker limits from the environment and refuses a value that is not a positive whole number', () => {
    expect(resolveWorkerLimits({ TASKLOOP_SANDBOX_MEMORY_MB: '512' })).toEqual({ ...defaultLimits, memoryMb: 512 });
    expect(() => resolveWorkerLimits({ TASKLOOP_SANDBOX_PROCESSES: 'lots' })).toThrow(
      'TASKLOOP_SANDBOX_PROCESSES="lots" must be a positive whole number',
    );
  });

  it("lays the task's fields over the worker's defaults; network stays off unless the task asks", () => {
    const worker = {
      mode: 'bwrap' as const,
      limits: defaultLimits,
      hiddenPaths: ['/home/me'],
      shownPaths: ['/opt/tool'],
    };
    expect(sandboxPolicyFor(worker)).toEqual({
      mode: 'bwrap',
      network: false,
      limits: defaultLimits,
      hiddenPaths: ['/home/me'],
      shownPaths: ['/opt/tool'],
    });
    expect(sandboxPolicyFor(worker, { sandbox: 'none', network: true, limits: { processes: 8 } })).toMatchObject({
      mode: 'none',
      network: true,
      limits: { ...defaultLimits, processes: 8 },
    });
  });
});
