import { describe, expect, it } from 'vitest';
import { buildTestEnv } from '../../../activities/process-env.js';

describe('buildTestEnv', () => {
  it('keeps allow-listed worker variables and drops the rest', () => {
    const env = buildTestEnv({
      base: { PATH: '/usr/bin', HOME: '/home/u', AWS_REGION: 'eu', NODE_OPTIONS: '--x', LANG: undefined },
      extra: {},
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/u', PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' });
  });

  it('adds the task variables but removes secret-named ones from both sources', () => {
    const env = buildTestEnv({
      base: { PATH: '/bin', HOME: '/h' },
      extra: { APP_MODE: 'test', OPENAI_API_KEY: 'sk-x', DB_PASSWORD: 'p', GITHUB_TOKEN: 't' },
    });
    expect(env.APP_MODE).toBe('test');
    expect(Object.keys(env)).not.toContain('OPENAI_API_KEY');
    expect(Object.keys(env)).not.toContain('DB_PASSWORD');
    expect(Object.keys(env)).not.toContain('GITHUB_TOKEN');
  });

  it('forces the Python settings that keep the worktree clean, whatever the task says', () => {
    const env = buildTestEnv({ base: {}, extra: { PYTHONDONTWRITEBYTECODE: '0' } });
    expect(env.PYTHONDONTWRITEBYTECODE).toBe('1');
    expect(env.PYTHONUNBUFFERED).toBe('1');
  });
});
