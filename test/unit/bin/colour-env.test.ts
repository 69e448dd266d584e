import { describe, expect, it } from 'vitest';
import { runTaskloop } from '../../support/cli.js';

describe('colour settings in the environment', () => {
  it('FORCE_COLOR with a non-empty NO_COLOR prints no Node warning (NO_COLOR wins, as taskloop documents)', async () => {
    const result = await runTaskloop(['--version'], { env: { ...process.env, FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });
});
