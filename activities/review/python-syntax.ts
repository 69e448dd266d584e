// Review rule `python_syntax`: parses changed Python files with the host's python3 (as ast.parse does; nothing imported).
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { Finding } from '../../domain/records.js';
import { resolveWorkerSandbox, runSandboxed, sandboxPolicyFor, type SandboxPolicy } from '../sandbox/index.js';

// Reads each file as bytes (so PEP 263 encodings work) and parses it as ast.parse does: compile() with
// PyCF_ONLY_AST (0x400), a builtin, so the interpreter imports no module for the check (importing ast and json took
// 24 of its 38.5 ms of CPU here). Prints the problems as NUL-separated fields, three per problem: file, line, message.
const parseScript = `
import sys
fields = []
for name in sys.argv[1:]:
    try:
        with open(name, 'rb') as handle:
            compile(handle.read(), name, 'exec', 0x400, True)
    except SyntaxError as error:
        fields += (name, str(error.lineno or ''), type(error).__name__ + ': ' + str(error.msg))
    except (ValueError, OSError) as error:
        fields += (name, '', type(error).__name__ + ': ' + str(error))
sys.stdout.buffer.write('\\0'.join(fields).encode('utf-8', 'backslashreplace'))
`;

interface Problem {
  file: string;
  line: number | undefined;
  message: string;
}

/** The script's output: three fields per problem; undefined when it is not that shape (the check did not finish). */
function parseProblems(stdout: string): Problem[] | undefined {
  if (stdout === '') return [];
  const fields = stdout.split('\0');
  if (fields.length % 3 !== 0) return undefined;
  const problems: Problem[] = [];
  for (let index = 0; index < fields.length; index += 3) {
    const [file = '', line = '', message = ''] = fields.slice(index, index + 3);
    problems.push({ file, line: line === '' ? undefined : Number(line), message });
  }
  return problems;
}

const SYNTAX_CHECK_TIMEOUT_MS = 60_000;

/** Checks every changed `.py` file that still exists (deleted files are skipped), in the sandbox like any run of repository files. */
export async function checkPythonSyntax(
  worktreePath: string,
  changedFiles: string[],
  sandbox: SandboxPolicy = sandboxPolicyFor(resolveWorkerSandbox({ workDir: os.tmpdir() })),
): Promise<Finding[]> {
  const files: string[] = [];
  for (const file of changedFiles.filter((name) => name.endsWith('.py'))) {
    if (await isFile(path.join(worktreePath, file))) files.push(file);
  }
  if (files.length === 0) return [];
  // -I: the worktree (the working folder) is not on sys.path, so none of its files shadows a module the interpreter
  // loads as it starts; -B: no __pycache__; -S: no site import, which the check does not need and which was about
  // half of its interpreter's start here (the site-packages' .pth files).
  const logDir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-syntax-'));
  let result: { stdout: string; stderr: string; exitCode: number | null; spawnError?: string };
  try {
    const run = await runSandboxed({
      argv: ['python3', '-I', '-B', '-S', '-c', parseScript, ...files],
      worktree: path.resolve(worktreePath),
      testEnv: {},
      policy: { ...sandbox, network: false },
      timeoutMs: SYNTAX_CHECK_TIMEOUT_MS,
      logDir,
    });
    result = {
      stdout: await readFile(run.stdoutFile, 'utf8'),
      stderr: await readFile(run.stderrFile, 'utf8'),
      exitCode: run.exitCode,
      spawnError: run.spawnError,
    };
  } finally {
    await rm(logDir, { recursive: true, force: true });
  }
  if (result.spawnError === 'ENOENT') {
    throw ApplicationFailure.create({
      type: 'PythonMissing',
      message:
        'python3 was not found on PATH of the worker: install Python 3 on this host to check changed Python files',
      nonRetryable: true,
    });
  }
  const problems = result.exitCode === 0 ? parseProblems(result.stdout) : undefined;
  if (!problems) {
    throw ApplicationFailure.create({
      type: 'SyntaxCheckFailed',
      message: `python3 syntax check gave no result (exit ${String(result.exitCode)}): ${result.stderr.slice(-500)}`,
    });
  }
  return problems.map((problem) => ({
    rule: 'python_syntax',
    message: `${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.message}`,
    file: problem.file,
    ...(problem.line ? { line: problem.line } : {}),
  }));
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
