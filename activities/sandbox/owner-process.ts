// Names of things a worker leaves on shared ground (cgroups, temporary folders) carry their owner's PID namespace and
// process id, so a later worker can tell a dead worker's from a live one's, and never takes a process id of another
// namespace (another container on the host, sharing the folder) for one of its own.
import { readlinkSync } from 'node:fs';

const pidNamespace = (() => {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '0';
  } catch {
    return '0';
  }
})();

/** `<pid namespace>-<pid>`: this process as an owner in a name. */
export const ownerTag = () => `${pidNamespace}-${process.pid}`;

/** True when a name's owner (namespace and process id, as read back from `ownerTag`) is a process that has ended. */
export function isDeadOwner(namespace: string | undefined, pid: string | undefined): boolean {
  return namespace === pidNamespace && pid !== undefined && !isAlive(Number(pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
