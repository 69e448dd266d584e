import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodecConfigError, resolveCodecKeys } from '../../../../platform/codec/codec-keys.js';
import { clearPayloadsWarning, isLoopbackAddress, resolveHostCodec } from '../../../../platform/codec/host-codec.js';

const key = () => randomBytes(32).toString('base64');

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    resolveCodecKeys(env);
  } catch (error) {
    expect(error).toBeInstanceOf(CodecConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a CodecConfigError');
}

describe('resolveCodecKeys', () => {
  it('is undefined when no key is configured', () => {
    expect(resolveCodecKeys({})).toBeUndefined();
    expect(resolveCodecKeys({ TASKLOOP_CODEC: 'none' })).toBeUndefined();
  });

  it('reads TASKLOOP_CODEC_KEYS entries (comma or space separated); the first is current, every one known', () => {
    const [a, b, c] = [key(), key(), key()];
    const keys = resolveCodecKeys({ TASKLOOP_CODEC_KEYS: `new:${a}, old:${b} older:${c}` });
    expect(keys?.current.id).toBe('new');
    expect(keys?.current.key).toEqual(Buffer.from(a, 'base64'));
    expect([...(keys?.byId.keys() ?? [])]).toEqual(['new', 'old', 'older']);
    expect(keys?.source).toBe('TASKLOOP_CODEC_KEYS');
  });

  it('reads a key file of id:base64 lines, skipping blank and # lines', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codec-keys-'));
    const file = path.join(dir, 'keys');
    await writeFile(file, `# rotated 2026-12-06\n\nk2:${key()}\nk1:${key()}\n`, { mode: 0o600 });
    const keys = resolveCodecKeys({ TASKLOOP_CODEC_KEY_FILE: file });
    expect(keys?.current.id).toBe('k2');
    expect(keys?.byId.size).toBe(2);
    expect(keys?.source).toBe(`TASKLOOP_CODEC_KEY_FILE (${file})`);
  });

  it('refuses a key file every user may read, naming the chmod that fixes it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codec-keys-'));
    const file = path.join(dir, 'keys');
    await writeFile(file, `k1:${key()}\n`);
    await chmod(file, 0o644);
    expect(refusal({ TASKLOOP_CODEC_KEY_FILE: file })).toBe(
      `TASKLOOP_CODEC_KEY_FILE=${file} is readable by every user of this machine (mode 644), and anyone who reads it decrypts every payload: make it yours alone with chmod 600 ${file}`,
    );
    await chmod(file, 0o640);
    expect(resolveCodecKeys({ TASKLOOP_CODEC_KEY_FILE: file })?.current.id).toBe('k1');
  });

  it('names the file line of a bad entry, and never echoes key material', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codec-keys-'));
    const file = path.join(dir, 'keys');
    const short = randomBytes(16).toString('base64');
    await writeFile(file, `# keys\nk1:${key()}\n\nk2:${short}\n`, { mode: 0o600 });
    const message = refusal({ TASKLOOP_CODEC_KEY_FILE: file });
    expect(message).toBe(
      `TASKLOOP_CODEC_KEY_FILE (${file}) line 4 (key id "k2"): the key is 16 bytes once base64-decoded, AES-256 needs 32; make one with: openssl rand -base64 32`,
    );
    expect(message).not.toContain(short);
  });

  it.each([
    [
      'an entry without an id',
      () => key(),
      /TASKLOOP_CODEC_KEYS: entry 1 has no "id:" before the key: write each key as id:base64key/,
    ],
    ['a key that is not base64', () => 'k1:not*base64!', /entry 1 \(key id "k1"\): the key is not base64/],
    [
      'a key of the wrong length',
      () => `k1:${randomBytes(31).toString('base64')}`,
      /31 bytes once base64-decoded, AES-256 needs 32/,
    ],
    ['a bad key id', () => `k 1/x:${key()}`.replace(' ', '%'), /the key id \(before the ":"\) must be 1 to 64 letters/],
    ['a repeated key id', () => `k1:${key()},k1:${key()}`, /entry 2: key id "k1" appears twice/],
  ])('refuses %s, naming the variable, the problem and the fix', (_what, value, expected) => {
    const raw = value();
    const message = refusal({ TASKLOOP_CODEC_KEYS: raw });
    expect(message).toMatch(expected);
    for (const part of raw.split(/[,:]/).filter((p) => p.length >= 20)) expect(message).not.toContain(part);
  });

  it('refuses both variables at once, a missing file, an empty file and TASKLOOP_CODEC other than none', async () => {
    expect(refusal({ TASKLOOP_CODEC_KEYS: `a:${key()}`, TASKLOOP_CODEC_KEY_FILE: '/k' })).toContain(
      'both TASKLOOP_CODEC_KEYS and TASKLOOP_CODEC_KEY_FILE are set: set one of them',
    );
    expect(refusal({ TASKLOOP_CODEC_KEY_FILE: '/no/such/keys' })).toMatch(
      /^TASKLOOP_CODEC_KEY_FILE=\/no\/such\/keys: no such file; give the path of a file of id:base64key lines/,
    );
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codec-keys-'));
    await writeFile(path.join(dir, 'empty'), '# nothing yet\n', { mode: 0o600 });
    expect(refusal({ TASKLOOP_CODEC_KEY_FILE: path.join(dir, 'empty') })).toContain('holds no key');
    await writeFile(path.join(dir, 'locked'), `a:${key()}\n`);
    await chmod(path.join(dir, 'locked'), 0o000);
    if (process.getuid?.() !== 0)
      expect(refusal({ TASKLOOP_CODEC_KEY_FILE: path.join(dir, 'locked') })).toContain('cannot be read (EACCES)');
    expect(refusal({ TASKLOOP_CODEC: 'off' })).toContain(
      'TASKLOOP_CODEC="off" is not a setting: the only value is "none"',
    );
    expect(refusal({ TASKLOOP_CODEC: 'none', TASKLOOP_CODEC_KEYS: `a:${key()}` })).toContain(
      'TASKLOOP_CODEC=none says payloads stay in clear, but TASKLOOP_CODEC_KEYS is set',
    );
  });
});

describe('the clear-payloads warning', () => {
  it('tells of loopback addresses', () => {
    for (const address of ['127.0.0.1:7233', 'localhost:7233', '[::1]:7233', '127.1.2.3:9'])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['10.0.0.5:7233', 'temporal.example.com:7233', 'ns.a1b2.tmprl.cloud:7233', '[fe80::1]:7233'])
      expect(isLoopbackAddress(address), address).toBe(false);
  });

  it('is given for a remote server without a key, and not on loopback, with a key, or with TASKLOOP_CODEC=none', () => {
    const remote = 'temporal.example.com:7233';
    expect(clearPayloadsWarning(resolveHostCodec({}), remote)).toBe(
      'taskloop: warning: no payload key, so goals, hints and results are stored in clear on the Temporal server at temporal.example.com:7233; ' +
        'set TASKLOOP_CODEC_KEYS or TASKLOOP_CODEC_KEY_FILE on every client and worker (docs/security.md#encrypted-payloads), or TASKLOOP_CODEC=none to keep them in clear on purpose',
    );
    expect(clearPayloadsWarning(resolveHostCodec({}), '127.0.0.1:7233')).toBeUndefined();
    expect(clearPayloadsWarning(resolveHostCodec({ TASKLOOP_CODEC_KEYS: `a:${key()}` }), remote)).toBeUndefined();
    expect(clearPayloadsWarning(resolveHostCodec({ TASKLOOP_CODEC: 'none' }), remote)).toBeUndefined();
  });
});
