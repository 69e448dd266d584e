import { describe, expect, it } from 'vitest';
import { runTaskloop } from '../../support/cli.js';

describe('the CLI without a payload key', () => {
  it('warns once on stderr that goals and hints are stored in clear on a remote server, and not on loopback', async () => {
    const env = { ...process.env, TASKLOOP_CODEC_KEYS: '', TASKLOOP_CODEC_KEY_FILE: '', TASKLOOP_CODEC: '' };
    const remote = await runTaskloop(['list'], { env: { ...env, TEMPORAL_ADDRESS: 'no-such-host.invalid:7233' } });
    expect(remote.exitCode).toBe(1);
    const warnings = remote.stderr.split('\n').filter((line) => line.includes('stored in clear'));
    expect(warnings).toEqual([
      'taskloop: warning: no payload key, so goals, hints and results are stored in clear on the Temporal server at no-such-host.invalid:7233; ' +
        'set TASKLOOP_CODEC_KEYS or TASKLOOP_CODEC_KEY_FILE on every client and worker (docs/security.md#encrypted-payloads), or TASKLOOP_CODEC=none to keep them in clear on purpose',
    ]);
    expect(remote.stderr).toContain('cannot reach Temporal at no-such-host.invalid:7233');
    const local = await runTaskloop(['list'], { env: { ...env, TEMPORAL_ADDRESS: '127.0.0.1:1' } });
    expect(local.stderr).not.toContain('stored in clear');
    const bad = await runTaskloop(['list'], { env: { ...env, TASKLOOP_CODEC_KEYS: 'k1:c2hvcnQ=' } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'taskloop: TASKLOOP_CODEC_KEYS: entry 1 (key id "k1"): the key is 5 bytes once base64-decoded, AES-256 needs 32; make one with: openssl rand -base64 32',
    );
  });
});
