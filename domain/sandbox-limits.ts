// The range of each resource limit of a test run: what a task's `limits` and the worker's TASKLOOP_SANDBOX_* variables
// may set. The upper bounds are far above any real run and far below what breaks the tools that apply them (prlimit,
// the pids cgroup): `processes: 1e12` used to pass the spec and fail every run, read as the change's fault.

export interface LimitRange {
  min: number;
  max: number;
  /** The unit, in words, for messages. */
  unit: string;
  /** A value to suggest in a fix. */
  example: number;
}

export const limitRanges = {
  memoryMb: { min: 16, max: 1_048_576, unit: 'MB', example: 4096 },
  processes: { min: 4, max: 65_536, unit: 'processes', example: 256 },
  fileSizeMb: { min: 1, max: 1_048_576, unit: 'MB', example: 1024 },
  cpuSeconds: { min: 1, max: 604_800, unit: 'seconds', example: 3600 },
  outputMb: { min: 1, max: 65_536, unit: 'MB', example: 64 },
  writtenMb: { min: 16, max: 1_048_576, unit: 'MB', example: 4096 },
  files: { min: 100, max: 100_000_000, unit: 'files', example: 100_000 },
} as const satisfies Record<string, LimitRange>;

export type LimitName = keyof typeof limitRanges;
export const limitNames = Object.keys(limitRanges) as LimitName[];

/** `a whole number of MB from 16 to 1048576`: what a limit field expects, for messages. */
export function describeLimitRange(name: LimitName): string {
  const { min, max, unit } = limitRanges[name];
  return `a whole number of ${unit} from ${min} to ${max}`;
}
