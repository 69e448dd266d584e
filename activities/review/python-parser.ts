// One python3 per review parses every changed Python source the worker sends it on stdin, then exits. It runs in the
// sandbox like any reader of repository files (bubblewrap unless the worker opted out, resource limits, no network, a
// clean environment), yet opens nothing: it only compiles bytes from its stdin (compile() with PyCF_ONLY_AST imports
// and runs nothing), in bubblewrap's private /tmp with no folder of the host bound. It dies with the worker (bwrap
// --die-with-parent; without bwrap, setpriv's parent-death signal) and is killed after the timeout.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { ApplicationFailure } from '@temporalio/common';
import { buildSandboxEnv, buildTestEnv } from '../process-env.js';
import { dieWithWorkerArgs } from '../process/die-with-worker.js';
import { killGroup } from '../process/run-group.js';
import { bwrapArgs, prlimitArgs, SANDBOX_HOME } from '../sandbox/bwrap-args.js';
import { findProgram } from '../sandbox/find-program.js';
import { findPythonPaths } from '../sandbox/python-paths.js';
import type { SandboxPolicy } from '../sandbox/policy.js';

export interface PythonSource {
  /** The repository-relative name, as findings show it. */
  name: string;
  source: Buffer;
}

export interface SyntaxProblem {
  /** The source's index in the request. */
  index: number;
  line: number | undefined;
  message: string;
}

// Input: per file a line "<name bytes> <source bytes>" and those bytes, to the end of stdin. Output: three
// NUL-separated fields per problem (the file's index, line, message). Each source is parsed as ast.parse does (PEP 263
// encodings honoured, nothing imported or run).
const parserScript = `
import sys
data = sys.stdin.buffer.read()
fields, at, index = [], 0, 0
while at < len(data):
    end = data.index(b'\\n', at)
    name_size, source_size = map(int, data[at:end].split())
    name = data[end + 1:end + 1 + name_size].decode('utf-8', 'backslashreplace')
    at = end + 1 + name_size + source_size
    try:
        compile(data[end + 1 + name_size:at], name, 'exec', 0x400, True)
    except SyntaxError as error:
        fields += (str(index), str(error.lineno or ''), type(error).__name__ + ': ' + str(error.msg))
    except (ValueError, MemoryError, RecursionError) as error:
        fields += (str(index), '', type(error).__name__ + ': ' + (str(error) or 'too large or too deeply nested to parse'))
    index += 1
sys.stdout.buffer.write('\\0'.join(fields).encode('utf-8', 'backslashreplace'))
`;

const STDERR_KEPT = 500;

function checkFailed(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'SyntaxCheckFailed', message: `python3 syntax check: ${message}` });
}

/** The output: three fields per problem. */
function parseProblems(body: string): SyntaxProblem[] | undefined {
  if (body === '') return [];
  const fields = body.split('\0');
  if (fields.length % 3 !== 0) return undefined;
  const problems: SyntaxProblem[] = [];
  for (let index = 0; index < fields.length; index += 3) {
    const [file = '', line = '', message = ''] = fields.slice(index, index + 3);
    problems.push({ index: Number(file), line: line === '' ? undefined : Number(line), message });
  }
  return problems;
}

/** The parser's command line under the policy, and its environment. */
async function parserCommand(policy: SandboxPolicy): Promise<{ argv: string[]; env: Record<string, string> }> {
  const python = policy.mode === 'bwrap' ? await findPythonPaths() : { readOnly: [], binDirs: [] };
  const env =
    policy.mode === 'bwrap'
      ? buildSandboxEnv({ pathDirs: python.binDirs, home: SANDBOX_HOME, extra: {} })
      : buildTestEnv({ base: process.env, extra: {} });
  if (!findProgram('python3', env.PATH ?? '', '/').found) {
    throw ApplicationFailure.create({
      type: 'PythonMissing',
      message:
        'python3 was not found on PATH of the worker: install Python 3 on this host to check changed Python files',
      nonRetryable: true,
    });
  }
  // It writes no file (-B, fsize 0).
  const limits = { ...policy.limits, fileSizeMb: 0 };
  const python3 = ['python3', '-I', '-B', '-S', '-c', parserScript];
  const argv =
    policy.mode === 'bwrap'
      ? bwrapArgs({
          writable: [],
          readOnly: python.readOnly,
          hidden: policy.hiddenPaths,
          network: false,
          env,
          limits,
          argv: python3,
        })
      : dieWithWorkerArgs([...prlimitArgs(limits), ...python3]);
  return { argv, env };
}

/** Parses the sources in one sandboxed python3; the problems come in the order of the sources. */
export async function parsePython(
  sources: PythonSource[],
  policy: SandboxPolicy,
  timeoutMs: number,
): Promise<SyntaxProblem[]> {
  const { argv, env } = await parserCommand(policy);
  const [command = '', ...args] = argv;
  // A process group of its own, killed whole on timeout: a kill in bubblewrap's first milliseconds can otherwise leave
  // its inner process behind (seen here once), holding the pipes.
  const child = spawn(command, args, { cwd: os.tmpdir(), env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => stdout.push(data));
  child.stderr.on('data', (data: Buffer) => {
    stderr = (stderr + data.toString('utf8')).slice(-STDERR_KEPT);
  });
  child.stdin.on('error', () => undefined); // a parser that died: its exit below fails the check
  const parts: Buffer[] = [];
  for (const { name, source } of sources) {
    const nameBytes = Buffer.from(name, 'utf8');
    parts.push(Buffer.from(`${nameBytes.length} ${source.length}\n`), nameBytes, source);
  }
  child.stdin.end(Buffer.concat(parts));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
    // Killed early, bubblewrap may leave what it started holding the pipes a moment longer (a CI run here waited 30 s
    // for them): once the parser's own process is gone, its output is not wanted, so stop reading and let it close.
    const release = () => {
      child.stdout.destroy();
      child.stderr.destroy();
    };
    if (child.exitCode !== null || child.signalCode !== null) release();
    else child.once('exit', release);
  }, timeoutMs);
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('close', (code, signal) => resolve({ code, signal }));
  }).finally(() => clearTimeout(timer));
  if (timedOut) throw checkFailed(`no result within ${timeoutMs} ms; the parser was stopped`);
  if (ended.error) throw checkFailed(`could not start: ${ended.error.message}`);
  if (ended.code !== 0) throw checkFailed(`the parser exited (${ended.signal ?? ended.code}): ${stderr}`);
  const body = Buffer.concat(stdout);
  const problems = parseProblems(body.toString('utf8'));
  if (!problems) throw checkFailed(`an unreadable reply (${body.length} bytes)`);
  return problems;
}
