// A local model server as a child process that never outlives its owner: run under a small shell that watches its
// own stdin, ready once it answers /health. Shared by both runtimes (llama.cpp's llama-server and taskloop's own
// node-llama-cpp server), so the worker starts, restarts and stops either the same way.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { isPortFree } from '../server/ports.js';

// Runs the server as a child of a small shell that also watches its own stdin: when the Node process that started
// it dies, even by SIGKILL, the pipe closes and the shell stops the server, so it never outlives its owner. The
// server's pid goes to fd 3 (the real process, for tests that kill it).
const ownerWatch = `
exec 5<&0
"$@" </dev/null 3>&- 5<&- &
server=$!
printf '%s\\n' "$server" >&3
exec 3>&-
trap 'kill -TERM "$server" 2>/dev/null' TERM INT HUP
( while read -r _ <&5; do :; done; kill -TERM "$server" 2>/dev/null ) &
watcher=$!
exec 5<&-
status=0
while kill -0 "$server" 2>/dev/null; do wait "$server"; status=$?; done
kill "$watcher" 2>/dev/null
exit "$status"
`;

export interface RunningModelServer {
  /** `http://127.0.0.1:<port>/v1`: what OPENAI_BASE_URL should be. */
  baseURL: string;
  port: number;
  /** The server process itself (not the watching shell). */
  pid: number;
  /** Resolves with the exit code (128 + n for signal n) when the server has stopped. */
  exited: Promise<number>;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it. */
  stop(): Promise<void>;
}

export class ModelServerError extends Error {
  override name = 'ModelServerError';
}

/**
 * Starts `command args` (its output to `logFile`, or to this process's stderr) and waits until /health answers on
 * `port`; `name` names it in errors.
 */
export async function startServerProcess(options: {
  name: string;
  command: string;
  args: string[];
  port: number;
  logFile?: string;
  readyTimeoutMs?: number;
}): Promise<RunningModelServer> {
  if (!(await isPortFree(options.port)))
    throw new ModelServerError(
      `port ${options.port} on 127.0.0.1 is already in use; choose another with --port (or stop what listens there)`,
    );
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : undefined;
  if (log) await new Promise((resolve) => log.once('open', resolve));
  const child = spawn('sh', ['-c', ownerWatch, options.name, options.command, ...options.args], {
    stdio: ['pipe', log ?? 'inherit', log ?? 'inherit', 'pipe'],
  });
  const exited = new Promise<number>((resolve) =>
    child.once('exit', (code, signal) => {
      log?.end();
      resolve(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15));
    }),
  );
  const pid = await readPid(child, exited, options.name);
  const baseURL = `http://127.0.0.1:${options.port}/v1`;
  const stop = async () => {
    child.stdin?.end();
    child.kill('SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilHealthy(options, exited);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseURL, port: options.port, pid, exited, stop };
}

function readPid(child: ChildProcess, exited: Promise<number>, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = '';
    const pipe = child.stdio[3] as NodeJS.ReadableStream | null;
    pipe?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const pid = Number(text.trim());
      if (text.includes('\n') && Number.isInteger(pid) && pid > 0) resolve(pid);
    });
    void exited.then((code) => reject(new ModelServerError(`${name} exited at once (status ${code})`)));
  });
}

async function waitUntilHealthy(
  options: { name: string; port: number; logFile?: string; readyTimeoutMs?: number },
  exited: Promise<number>,
): Promise<void> {
  const { name, port, logFile } = options;
  const timeoutMs = options.readyTimeoutMs ?? 120_000;
  let status: number | undefined;
  void exited.then((code) => (status = code));
  const where = logFile ? ` (its log: ${logFile})` : '';
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (status !== undefined)
      throw new ModelServerError(`${name} stopped with status ${status} before it was ready${where}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new ModelServerError(`${name} did not answer /health on port ${port} within ${timeoutMs} ms${where}`);
}
