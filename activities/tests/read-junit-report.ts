// The JUnit report a test run left, read as untrusted data: a report that is not a plain, bounded file is a finding,
// never read; the cases' file names count only when they are inside the worktree.
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { FailureCause } from '../../domain/failure-causes.js';
import type { TestCaseResult } from '../../domain/records.js';
import { confineToRoot, readUntrustedFile } from '../untrusted-files.js';
import { toCaseId } from './case-ids.js';
import { parseJunitXml } from './junit.js';

// A JUnit report of 20,000 cases is about 4 MB; a larger one is refused rather than parsed on the worker.
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

export function readCases(xml: string, worktreePath: string): TestCaseResult[] {
  // The report's file names come from repository code: only a file inside the worktree counts as existing.
  const exists = (relative: string) => confineToRoot(worktreePath, relative) !== undefined;
  return parseJunitXml(xml).map((entry) => ({ id: toCaseId(entry, exists), outcome: entry.outcome }));
}

/**
 * The JUnit report the run left in its writable folder. Code the tests ran may have put a link there (to a file the
 * sandbox hides), a FIFO (a plain read would block the worker) or a huge file: none of those is read, and the run
 * ends with an UnsafeTestOutput cause naming what was found. No report at all is only a missing report here (the
 * outcome's decision says a pytest exit 0 without one is no pass).
 */
export async function readReport(file: string): Promise<{ xml?: string; unsafe?: FailureCause }> {
  // The last component is opened without following a link; the folder above it, the one the run may write, could
  // itself have been swapped for a link to a report elsewhere (unsandboxed, where nothing binds it in place).
  const folder = await lstat(path.dirname(file)).catch(() => undefined);
  if (folder !== undefined && !folder.isDirectory()) {
    const what = folder.isSymbolicLink() ? 'a symbolic link' : 'not a folder';
    return { unsafe: unsafeReport(`its report folder ${path.dirname(file)} is ${what}`, 'link') };
  }
  const read = await readUntrustedFile(file, MAX_REPORT_BYTES);
  if (read.ok) return { xml: read.text };
  if (read.problem === 'missing') return {};
  return { unsafe: unsafeReport(read.detail, read.problem) };
}

function unsafeReport(detail: string, problem: string): FailureCause {
  return {
    kind: 'UnsafeTestOutput',
    message: `the test run left something other than a plain JUnit report at its report path: ${detail}; it was not read (code the tests ran must not touch pytest's report)`,
    details: { problem },
  };
}
