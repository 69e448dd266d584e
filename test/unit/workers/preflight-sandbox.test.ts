import { describe, expect, it } from 'vitest';
import { defaultLimits } from '../../../activities/sandbox/policy.js';
import { checkSandbox } from '../../../workers/preflight.js';

const worker = (mode: 'bwrap' | 'none') => ({ mode, limits: defaultLimits, hiddenPaths: [], shownPaths: [] });

describe('the worker sandbox preflight', () => {
  it('starts a real bwrap sandbox and reports the version and limits', async () => {
    const lines: string[] = [];
    await checkSandbox(worker('bwrap'), (line) => lines.push(line));
    expect(lines.join('\n')).toMatch(/sandbox: bwrap \(bubblewrap [\d.]+\); limits: 4096 MB memory, 256 processes/);
  });

  it('refuses to start when bwrap is not there, naming the package and the opt-out', async () => {
    const check = checkSandbox(worker('bwrap'), () => undefined, { PATH: '/nonexistent' });
    await expect(check).rejects.toThrow('bwrap was not found on PATH');
    await expect(check).rejects.toThrow('apt-get install bubblewrap');
    await expect(check).rejects.toThrow('taskloop worker --sandbox none (or TASKLOOP_SANDBOX=none)');
  });

  it('says loudly that the sandbox is off in none mode, without probing', async () => {
    const lines: string[] = [];
    await checkSandbox(worker('none'), (line) => lines.push(line), { PATH: '/nonexistent' });
    expect(lines.join('\n')).toContain('SANDBOX DISABLED');
  });
});
