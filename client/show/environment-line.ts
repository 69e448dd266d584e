// The line `taskloop show` gives an attempt's environment: the one its tests ran in (its name, which holds its key;
// built by the attempt or found in the cache, and how long that took), or what the step does while it runs.
import type { AttemptEnvironment } from '../../domain/trajectory/trajectory.js';
import { formatLiveEnvironment } from '../tasks/live-environment.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function environmentLine(environment: AttemptEnvironment): string {
  if (environment.step) return formatLiveEnvironment({ ...environment, step: environment.step });
  const took = environment.setupMs === undefined ? '' : ` in ${seconds(environment.setupMs)}`;
  const how = environment.built ? `built${took}` : `reused: found in the cache${took}`;
  return `environment: ${environment.name ?? 'unnamed'} (${how})`;
}
