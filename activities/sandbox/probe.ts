// Does bubblewrap work on this host? A worker in the default mode refuses to start when it does not.
import { execa } from 'execa';

export type BwrapProbe = { ok: true; version: string } | { ok: false; reason: string };

/** Starts `true` in a sandbox shaped like a real run's (user, PID and network namespaces, read-only root). */
export async function probeBwrap(pathValue = '/usr/local/bin:/usr/bin:/bin'): Promise<BwrapProbe> {
  const args = [
    '--unshare-all',
    '--unshare-user',
    '--die-with-parent',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--tmpfs',
    '/tmp',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--',
    'true',
  ];
  const run = await execa('bwrap', args, {
    reject: false,
    env: { PATH: pathValue },
    extendEnv: false,
    timeout: 10_000,
  });
  if (run.code === 'ENOENT') return { ok: false, reason: 'bwrap was not found on PATH' };
  if (run.exitCode !== 0)
    return {
      ok: false,
      reason: `bwrap could not start a sandbox: ${String(run.stderr).trim().slice(0, 300) || `exit ${String(run.exitCode)}`}`,
    };
  const version = await execa('bwrap', ['--version'], { reject: false, env: { PATH: pathValue }, extendEnv: false });
  return { ok: true, version: String(version.stdout).trim() };
}
