// Whether this machine's worker can bound a run's whole memory: root, with cgroup v1's memory hierarchy or cgroup v2
// with the memory controller enabled for the run's cgroup (activities/sandbox/memory-cgroup.ts).
import { readFile } from 'node:fs/promises';
import { memoryCgroupV1Root } from '../../../activities/sandbox/memory-cgroup.js';
import { pidsCgroupRoot } from '../../../activities/sandbox/pids-cgroup.js';

export async function memoryCgroupAvailable(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  if (await memoryCgroupV1Root()) return true;
  if ((await pidsCgroupRoot()) !== '/sys/fs/cgroup') return false;
  const controllers = await readFile('/sys/fs/cgroup/cgroup.subtree_control', 'utf8').catch(() => '');
  return controllers.split(/\s+/).includes('memory');
}
