// Review rule `python_syntax`: parses changed Python files as ast.parse does (nothing imported or run), all in one
// sandboxed python3 per review (python-parser.ts).
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Finding } from '../../domain/records.js';
import { resolveWorkerSandbox, sandboxPolicyFor, type SandboxPolicy } from '../sandbox/index.js';
import { realPathOf } from '../small-files.js';
import { parsePython, type PythonSource } from './python-parser.js';

const SYNTAX_CHECK_TIMEOUT_MS = 60_000;
/** Larger sources are a finding, not parsed: the worker reads each one whole. */
export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;

export type SourceRead = PythonSource | { name: string; tooLarge: number };

/**
 * Reads each changed `.py` file that is a regular file inside the worktree; deleted files and symbolic links are
 * skipped (a commit holds a link's target path, not Python). Read before the tests start, so no repository code
 * runs meanwhile: the parser sees what was staged, and a link swapped in by a test cannot make the worker read
 * (and quote, in a message) a file outside the worktree. Read synchronously, as the worker's other small files (see
 * activities/small-files.ts): this sits between the diff and the start of the tests.
 */
export async function readPythonSources(worktreePath: string, changedFiles: string[]): Promise<SourceRead[]> {
  const root = realpathSync.native(worktreePath);
  const read: SourceRead[] = [];
  for (const name of changedFiles.filter((file) => file.endsWith('.py'))) {
    const file = path.join(root, name);
    if (realPathOf(file) !== file) continue; // gone, or reached through a link
    let fd: number;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch {
      continue;
    }
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) continue;
      read.push(info.size > MAX_SOURCE_BYTES ? { name, tooLarge: info.size } : { name, source: readFileSync(fd) });
    } finally {
      closeSync(fd);
    }
  }
  return read;
}

/** The findings for sources read by readPythonSources, in their order. */
export async function parsePythonSources(
  sources: SourceRead[],
  sandbox: SandboxPolicy = sandboxPolicyFor(resolveWorkerSandbox({ workDir: os.tmpdir() })),
): Promise<Finding[]> {
  const parsed = sources.filter((source): source is PythonSource => 'source' in source);
  const problems = parsed.length > 0 ? await parsePython(parsed, sandbox, SYNTAX_CHECK_TIMEOUT_MS) : [];
  const findings: Finding[] = [];
  for (const source of sources) {
    if ('tooLarge' in source) {
      const mb = (source.tooLarge / 1024 / 1024).toFixed(1);
      findings.push({
        rule: 'python_syntax',
        message: `${source.name}: not parsed: ${mb} MB is over the ${MAX_SOURCE_BYTES / 1024 / 1024} MB a Python source may have`,
        file: source.name,
      });
      continue;
    }
    for (const problem of problems.filter(({ index }) => parsed[index] === source)) {
      findings.push({
        rule: 'python_syntax',
        message: `${source.name}${problem.line ? `:${problem.line}` : ''}: ${problem.message}`,
        file: source.name,
        ...(problem.line ? { line: problem.line } : {}),
      });
    }
  }
  return findings;
}

/** Reads and parses every changed `.py` file of the worktree (see readPythonSources). */
export async function checkPythonSyntax(
  worktreePath: string,
  changedFiles: string[],
  sandbox?: SandboxPolicy,
): Promise<Finding[]> {
  return parsePythonSources(await readPythonSources(worktreePath, changedFiles), sandbox);
}
