// apt-get for the first-run set-up, waiting (bounded) when another apt or dpkg holds its lock: on a fresh cloud
// machine unattended-upgrades often does for minutes, and apt-get alone gives up at once. Install waits inside apt
// (DPkg::Lock::Timeout, apt 1.9.11 and newer; older ones ignore it); `update` takes the lists lock, which that option
// does not cover, so a lock refusal is retried here until the same bound. Plain JavaScript: it runs before npm ci.
import { spawnSync } from 'node:child_process';

/** How long set-up waits for another apt to let go: five minutes. */
export const APT_LOCK_WAIT_S = 300;
const RETRY_EVERY_MS = 5000;

/** The arguments apt-get gets: the lock wait first, then what was asked. */
export const aptGetArgs = (args, waitS = APT_LOCK_WAIT_S) => ['-o', `DPkg::Lock::Timeout=${waitS}`, ...args];

/** `Could not get lock /var/lib/apt/lists/lock. It is held by process 2770 (apt-get)` → who holds it, or undefined. */
export function lockHolder(stderr) {
  const match = /Could not get lock (\S+?)\.?(?:\s|$)(?:.*?held by process (\d+)(?: \(([^)]+)\))?)?/s.exec(stderr);
  if (!match) return undefined;
  return { lock: match[1], pid: match[2], program: match[3] };
}

/**
 * Runs apt-get with `args`, waiting up to `waitS` seconds while another apt holds its lock (saying so once); returns
 * {status, waitedForLock, holder} where holder names the other apt when the wait ran out.
 */
export function aptGet(
  args,
  { say = () => undefined, waitS = APT_LOCK_WAIT_S, retryEveryMs = RETRY_EVERY_MS, env } = {},
) {
  const deadline = Date.now() + waitS * 1000;
  let waited = false;
  for (;;) {
    const result = spawnSync('apt-get', aptGetArgs(args, waitS), {
      stdio: ['inherit', 'inherit', 'pipe'],
      env: { DEBIAN_FRONTEND: 'noninteractive', ...(env ?? process.env) },
    });
    const stderr = result.stderr?.toString() ?? '';
    const holder = result.status === 0 ? undefined : lockHolder(stderr);
    if (!holder || Date.now() >= deadline) {
      if (stderr) process.stderr.write(stderr);
      return { status: result.status ?? 1, error: result.error, waitedForLock: waited, holder };
    }
    if (!waited)
      say(
        `another apt runs (${holder.program ?? 'a process'}${holder.pid ? ` pid ${holder.pid}` : ''} holds ${holder.lock}; on a fresh machine often unattended-upgrades): waiting up to ${Math.round(waitS / 60)} min for it`,
      );
    waited = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, retryEveryMs);
  }
}
