import { describe, expect, it } from 'vitest';
import { environmentCacheDir } from '../../../../activities/environments/cache-dir.js';

describe('where environments are cached', () => {
  it("is the work folder's environments folder, a shared absolute path when TASKLOOP_ENV_CACHE names one", () => {
    expect(environmentCacheDir('/srv/work', {})).toBe('/srv/work/environments');
    expect(environmentCacheDir('/srv/work', { TASKLOOP_ENV_CACHE: '' })).toBe('/srv/work/environments');
    expect(environmentCacheDir('/srv/work', { TASKLOOP_ENV_CACHE: '/mnt/shared/envs' })).toBe('/mnt/shared/envs');
    expect(() => environmentCacheDir('/srv/work', { TASKLOOP_ENV_CACHE: 'envs' })).toThrow(
      'TASKLOOP_ENV_CACHE="envs" must be an absolute folder path',
    );
  });
});
