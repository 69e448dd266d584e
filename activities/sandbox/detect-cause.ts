// Names what stopped a run, from how it ended and the end of its output: the sandbox refusing an action,
// a resource limit, too much output or the wall timeout. Pure, so every rule is unit-tested.
import type { SandboxPolicy } from './policy.js';

export interface RunCause {
  kind: 'SandboxDenied' | 'ResourceLimit' | 'OutputTooLarge' | 'TestTimeout';
  message: string;
  details?: Record<string, string | number | boolean>;
}

export interface CauseFacts {
  policy: Pick<SandboxPolicy, 'mode' | 'network' | 'limits'>;
  timedOut: boolean;
  timeoutMs: number;
  outputTooLarge: boolean;
  signal?: string;
  /** The end of stdout and stderr together. */
  outputTail: string;
  /** The limit on written bytes or new files the run went over (activities/sandbox/write-watch.ts), in words. */
  overWritten?: string;
  /** Processes of the run the kernel killed at the run's memory limit (activities/sandbox/memory-cgroup.ts). */
  oomKills?: number;
}

const denials: { pattern: RegExp; message: (policy: CauseFacts['policy']) => string; network?: boolean }[] = [
  { pattern: /Read-only file system/i, message: () => 'sandbox: write outside the worktree refused' },
  {
    pattern:
      /Connection refused|Network is unreachable|Temporary failure in name resolution|Name or service not known/i,
    network: true,
    message: () => 'sandbox: network access refused (set network: true on the task to allow it)',
  },
];

/** The first sandbox or limit cause the facts show, or undefined for an ordinary pass or failure. */
export function detectRunCause(facts: CauseFacts): RunCause | undefined {
  const { policy, outputTail } = facts;
  if (facts.timedOut)
    return {
      kind: 'TestTimeout',
      message: `timeout: test command exceeded ${facts.timeoutMs} ms`,
      details: { timeoutMs: facts.timeoutMs },
    };
  if (facts.outputTooLarge) {
    return {
      kind: 'OutputTooLarge',
      message: `test command output too large: over ${policy.limits.outputMb} MB, the run was stopped`,
      details: { outputMb: policy.limits.outputMb },
    };
  }
  const limit = detectLimit(facts);
  if (limit) return limit;
  if (policy.mode !== 'bwrap') return undefined;
  const hits = denials.filter((rule) => !(rule.network && policy.network) && rule.pattern.test(outputTail));
  if (hits.length === 0) return undefined;
  return {
    kind: 'SandboxDenied',
    message: hits.map((hit) => hit.message(policy)).join('; '),
    details: { mode: policy.mode, refusals: hits.length },
  };
}

function detectLimit({ policy, signal, outputTail, overWritten, oomKills }: CauseFacts): RunCause | undefined {
  const { limits } = policy;
  const found: string[] = overWritten ? [overWritten] : [];
  if (oomKills && oomKills > 0)
    found.push(`memory of the whole run (${limits.memoryMb} MB: ${oomKills} process(es) killed out of memory)`);
  if (/MemoryError|Cannot allocate memory|std::bad_alloc/.test(outputTail))
    found.push(`memory (address space ${limits.memoryMb} MB)`);
  if (/BlockingIOError|Resource temporarily unavailable|fork: retry/.test(outputTail))
    found.push(`processes (${limits.processes})`);
  if (signal === 'SIGXFSZ' || /File too large/.test(outputTail)) found.push(`file size (${limits.fileSizeMb} MB)`);
  if (signal === 'SIGXCPU') found.push(`CPU time (${limits.cpuSeconds} s)`);
  if (found.length === 0) return undefined;
  return { kind: 'ResourceLimit', message: `resource limit: ${found.join(', ')}`, details: { limits: found.length } };
}
