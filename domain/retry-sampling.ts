// Sampling that differs on a retry: at the agent version's own settings (often temperature 0) a small model given the
// same prompt sent attempt 1's reply again, word for word. A retry samples warmer, with a seed of its own, so it
// explores while a re-run of the same attempt (a resumed activity) still asks the same way.

export interface Sampling {
  temperature?: number;
  seed?: number;
}

/** The first retry's temperature when the version sets a lower one; each further retry adds a step, up to the cap. */
export const RETRY_TEMPERATURE = 0.4;
const RETRY_TEMPERATURE_STEP = 0.2;
const RETRY_TEMPERATURE_CAP = 1;

/** The sampling of an attempt after `earlierAttempts` attempts of the same task, from the version's own `base`. */
export function samplingForAttempt<T extends Sampling>(base: T, earlierAttempts: number): T {
  if (earlierAttempts <= 0) return base;
  const steps = RETRY_TEMPERATURE + RETRY_TEMPERATURE_STEP * (earlierAttempts - 1);
  const warmer = Math.min(RETRY_TEMPERATURE_CAP, Math.round(steps * 100) / 100);
  return { ...base, temperature: Math.max(base.temperature ?? 0, warmer), seed: earlierAttempts + 1 };
}
