import { describe, expect, it } from 'vitest';
import { runTaskloop } from '../../support/cli.js';

describe('colour settings in the environment', () => {
  it('FORCE_COLOR with a non-empty NO_COLOR prints no Node warning (NO_COLOR wins, as taskloop documents)', async () => {
    const result = await runTaskloop(['--version'], { env: { ...process.env, FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('--no-color under FORCE_COLOR prints no Node warning either, in a command that prints (E18)', async () => {
    const { NO_COLOR: _unset, ...env } = process.env;
    const result = await runTaskloop(['--no-color', 'help', 'run'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Usage: taskloop run');
    expect(result.stderr).not.toContain('Warning');
  });
});
