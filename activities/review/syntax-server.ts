// One long-lived python3 per worker (and sandbox policy) parses the Python sources the worker sends it, so a review
// pays no interpreter start. A python3 per check cost about 32 ms of CPU here (its start 15 ms, bwrap, the cgroup and
// the spawn the rest): a twentieth of a whole calc task. It runs in the sandbox like any reader of repository files
// (bubblewrap unless the worker opted out, resource limits, no network, a clean environment), yet it opens nothing:
// it only compiles bytes from its stdin (compile() with PyCF_ONLY_AST imports and runs nothing). It dies with the
// worker (bwrap --die-with-parent; without bwrap, at the end of its stdin), and exits after a quiet while.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { ApplicationFailure } from '@temporalio/common';
import { buildSandboxEnv, buildTestEnv } from '../process-env.js';
import { bwrapArgs, prlimitArgs, SANDBOX_HOME } from '../sandbox/bwrap-args.js';
import { findProgram } from '../sandbox/find-program.js';
import { findPythonPaths } from '../sandbox/python-paths.js';
import { makeSyntaxFolder } from './syntax-folders.js';
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

// Requests: a line with the file count, then per file a line "<name bytes> <source bytes>" and those bytes. Reply:
// a line with the body's length, then the body: three NUL-separated fields per problem (the file's index in the
// request, line, message).
// Each source is parsed as ast.parse does (PEP 263 encodings honoured, nothing imported or run).
const serverScript = `
import sys
stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
def exactly(size):
    data = stdin.read(size)
    if len(data) != size:
        raise SystemExit(0)
    return data
while True:
    header = stdin.readline()
    if not header:
        break
    fields = []
    for index in range(int(header)):
        name_size, source_size = map(int, stdin.readline().split())
        name = exactly(name_size).decode('utf-8', 'backslashreplace')
        source = exactly(source_size)
        try:
            compile(source, name, 'exec', 0x400, True)
        except SyntaxError as error:
            fields += (str(index), str(error.lineno or ''), type(error).__name__ + ': ' + str(error.msg))
        except (ValueError, MemoryError, RecursionError) as error:
            fields += (str(index), '', type(error).__name__ + ': ' + (str(error) or 'too large or too deeply nested to parse'))
    body = '\\0'.join(fields).encode('utf-8', 'backslashreplace')
    stdout.write(b'%d\\n' % len(body) + body)
    stdout.flush()
`;

const IDLE_EXIT_MS = 10 * 60_000;
const STDERR_KEPT = 4000;

/** The reply body: three fields per problem. */
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

function checkFailed(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'SyntaxCheckFailed', message: `python3 syntax check: ${message}` });
}

interface Waiting {
  resolve: (body: Buffer) => void;
  reject: (error: Error) => void;
}

class SyntaxServer {
  private child?: ChildProcessWithoutNullStreams;
  private folder?: string;
  private output = Buffer.alloc(0);
  private stderr = '';
  private waiting?: Waiting;
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer?: NodeJS.Timeout;
  /** Folders of retired parsers not yet exited. */
  private readonly retiring = new Set<string>();

  constructor(private readonly policy: SandboxPolicy) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Parses the sources, one request at a time (the server reads one request after the other). */
  check(sources: PythonSource[], timeoutMs: number): Promise<SyntaxProblem[]> {
    const result = this.queue.then(() => this.request(sources, timeoutMs));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Kills the parser and removes its folder at once (the worker is exiting: no exit event will follow). */
  stop(): void {
    this.child?.kill('SIGKILL');
    for (const folder of [this.folder, ...this.retiring]) if (folder) rmSync(folder, { recursive: true, force: true });
  }

  private async request(sources: PythonSource[], timeoutMs: number): Promise<SyntaxProblem[]> {
    const child = this.child ?? (await this.start());
    clearTimeout(this.idleTimer);
    const body = await new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        this.retire(child, 'kill');
        reject(checkFailed(`no result within ${timeoutMs} ms; the parser was stopped`));
      }, timeoutMs);
      const settle = (done: () => void) => {
        clearTimeout(timer);
        this.waiting = undefined;
        done();
      };
      this.waiting = {
        resolve: (reply) => settle(() => resolve(reply)),
        reject: (error) => settle(() => reject(error)),
      };
      const parts: Buffer[] = [Buffer.from(`${sources.length}\n`)];
      for (const { name, source } of sources) {
        const nameBytes = Buffer.from(name, 'utf8');
        parts.push(Buffer.from(`${nameBytes.length} ${source.length}\n`), nameBytes, source);
      }
      child.stdin.write(Buffer.concat(parts));
    });
    this.idleTimer = setTimeout(() => this.retire(child, 'end'), IDLE_EXIT_MS).unref();
    const problems = parseProblems(body.toString('utf8'));
    if (!problems) throw checkFailed(`an unreadable reply (${body.length} bytes)`);
    return problems;
  }

  private async start(): Promise<ChildProcessWithoutNullStreams> {
    const { policy } = this;
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
    // An empty working folder of its own: the parser needs no file of the repository, and writes none (-B, fsize 0).
    const folder = makeSyntaxFolder();
    // No CPU-seconds limit: it would add up over the server's life; each request has a wall timeout instead.
    const limits = { ...policy.limits, fileSizeMb: 0, cpuSeconds: Infinity };
    const python3 = ['python3', '-I', '-B', '-S', '-c', serverScript];
    const argv =
      policy.mode === 'bwrap'
        ? bwrapArgs({
            worktree: folder,
            writable: [],
            readOnly: python.readOnly,
            hidden: policy.hiddenPaths,
            network: false,
            env,
            limits,
            argv: python3,
          })
        : [...prlimitArgs(limits), ...python3];
    const [command = '', ...args] = argv;
    const child = spawn(command, args, { cwd: folder, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.folder = folder;
    this.output = Buffer.alloc(0);
    this.stderr = '';
    child.stdout.on('data', (data: Buffer) => this.onOutput(data));
    child.stderr.on('data', (data: Buffer) => {
      this.stderr = (this.stderr + data.toString('utf8')).slice(-STDERR_KEPT);
    });
    child.stdin.on('error', () => undefined); // a dead server: its exit below fails the request
    child.on('error', (error) => this.onExit(child, `could not start: ${error.message}`));
    child.on('exit', (code, signal) => this.onExit(child, `the parser exited (${signal ?? code})`));
    // The worker's event loop never waits on an idle server; a request's timer keeps it alive while one runs.
    child.unref();
    // Pipes to a child are sockets.
    for (const pipe of [child.stdin, child.stdout, child.stderr]) (pipe as unknown as Socket).unref();
    return child;
  }

  private onOutput(data: Buffer): void {
    this.output = Buffer.concat([this.output, data]);
    const newline = this.output.indexOf(10);
    if (newline < 0) return;
    const size = Number(this.output.subarray(0, newline).toString('ascii'));
    if (this.output.length < newline + 1 + size) return;
    const body = this.output.subarray(newline + 1, newline + 1 + size);
    this.output = this.output.subarray(newline + 1 + size);
    this.waiting?.resolve(body);
  }

  /**
   * Stops using `child` at once (killed after a timeout, or its input ended when idle), so the next request starts a
   * new parser instead of reaching one on its way out; its folder goes when it has exited.
   */
  private retire(child: ChildProcessWithoutNullStreams, how: 'kill' | 'end'): void {
    if (this.child !== child) return;
    const folder = this.folder;
    this.child = undefined;
    this.folder = undefined;
    clearTimeout(this.idleTimer);
    if (folder) {
      this.retiring.add(folder);
      const removeFolder = () => {
        this.retiring.delete(folder);
        rmSync(folder, { recursive: true, force: true });
      };
      if (child.exitCode !== null || child.signalCode !== null) removeFolder();
      else child.once('exit', removeFolder);
    }
    if (how === 'kill') child.kill('SIGKILL');
    else child.stdin.end();
  }

  private onExit(child: ChildProcessWithoutNullStreams, reason: string): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (this.folder) rmSync(this.folder, { recursive: true, force: true });
    this.folder = undefined;
    clearTimeout(this.idleTimer);
    this.waiting?.reject(checkFailed(`${reason}: ${this.stderr.slice(-500)}`));
  }
}

const servers = new Map<string, SyntaxServer>();

function serverFor(policy: SandboxPolicy): SyntaxServer {
  const key = JSON.stringify([policy.mode, policy.hiddenPaths, policy.limits.memoryMb, policy.limits.processes]);
  let server = servers.get(key);
  if (!server) {
    server = new SyntaxServer({ ...policy, network: false });
    servers.set(key, server);
  }
  return server;
}

process.once('exit', () => {
  for (const server of servers.values()) server.stop();
});

/** Parses the sources in the policy's long-lived parser; the problems come in the order of the sources. */
export function parseInSyntaxServer(
  sources: PythonSource[],
  policy: SandboxPolicy,
  timeoutMs: number,
): Promise<SyntaxProblem[]> {
  return serverFor(policy).check(sources, timeoutMs);
}

/** The pid of the policy's parser process while it runs (for tests). */
export const syntaxServerPid = (policy: SandboxPolicy) => serverFor(policy).pid;
