import { describe, expect, it } from 'vitest';
import { samplingForAttempt } from '../../../domain/retry-sampling.js';

describe('samplingForAttempt', () => {
  it("keeps the version's own sampling for a task's first attempt", () => {
    expect(samplingForAttempt({ temperature: 0, maxTokens: 256 }, 0)).toEqual({ temperature: 0, maxTokens: 256 });
  });

  it('samples warmer, with a seed of its own, on each retry (attempt 1 at temperature 0 was replayed word for word)', () => {
    expect(samplingForAttempt({ temperature: 0, maxTokens: 256 }, 1)).toEqual({
      temperature: 0.4,
      seed: 2,
      maxTokens: 256,
    });
    expect(samplingForAttempt({ temperature: 0 }, 2)).toEqual({ temperature: 0.6, seed: 3 });
    expect(samplingForAttempt<{ temperature?: number }>({}, 9).temperature).toBe(1);
    // A version that already samples warmer keeps its own temperature.
    expect(samplingForAttempt({ temperature: 0.9 }, 1)).toEqual({ temperature: 0.9, seed: 2 });
  });
});
