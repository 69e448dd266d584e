// Network for environment set-up: egress to the outside and nothing of the host. The run gets a network namespace of
// its own (bwrap --unshare-net), its only way out slirp4netns (user-mode networking: the run's connections become the
// worker's, made from the host) with the host's loopback switched off (10.0.2.2 leads nowhere), and a route in the
// namespace refusing each of the host's own addresses (slirp would otherwise connect to them, and they are the host:
// a service bound to every address answers there) and the link-local range (a cloud's metadata service hands out the
// machine's credentials). The namespace has its own loopback and its own abstract sockets: the host's are not there.
// The run is held (bwrap --block-fd) until all of it is in place, so no line of set-up runs before the routes.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { execa } from 'execa';
import { setupFailure } from '../environments/setup-failure.js';
import { findProgram } from './find-program.js';

/** slirp4netns's built-in resolver, which forwards to the host's: the run's /etc/resolv.conf names it. */
const SLIRP_DNS = '10.0.2.3';
/** slirp4netns's defaults: the run's address and the gateway (the host's loopback, were it not switched off). */
const SLIRP_ADDRESS = '10.0.2.100';
const SLIRP_GATEWAY = '10.0.2.2';
const READY_TIMEOUT_MS = 15_000;
/** The descriptors bwrap is given: it writes the sandbox's pid on the first and waits for a byte on the second. */
export const EGRESS_FDS = { info: 3, block: 4 } as const;

// nsenter and ip (util-linux, iproute2) may be in an sbin folder a worker's PATH lacks.
const systemPath = () => [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(':');

/** slirp4netns's path; fails the set-up (EnvironmentSetupFailed) naming the package when it is missing, never the host's network. */
export function findSlirp4netns(pathValue = process.env.PATH ?? ''): string {
  for (const dir of pathValue.split(':').filter((entry) => path.isAbsolute(entry))) {
    const file = path.join(dir, 'slirp4netns');
    if (findProgram(file, '', '/').found) return file;
  }
  throw setupFailure(
    'environment set-up needs slirp4netns (it gives set-up the network to the package index and nothing of this host), ' +
      'and it was not found on PATH: install it (Debian/Ubuntu: apt-get install slirp4netns; Fedora: dnf install ' +
      'slirp4netns), then retry the task',
  );
}

/** The host's own addresses (IPv4: slirp connects over IPv4 only) as /32 routes, and the link-local range. */
export function refusedDestinations(): string[] {
  const own = Object.values(os.networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => address.family === 'IPv4' && !address.internal)
    .map((address) => `${address.address}/32`);
  return [...new Set([...own, '169.254.0.0/16'])];
}

/** Writes the run's resolv.conf (naming slirp's resolver) into `dir`, a host folder the run never sees. */
export function writeEgressResolvConf(dir: string): string {
  const file = path.join(dir, 'resolv.conf');
  writeFileSync(file, `nameserver ${SLIRP_DNS}\n`);
  return file;
}

/** bwrap's arguments for an egress run (after /etc's): the descriptors, and slirp's resolver as /etc/resolv.conf. */
export function egressBwrapArgs(resolvConf: string): string[] {
  return [
    '--info-fd',
    String(EGRESS_FDS.info),
    '--block-fd',
    String(EGRESS_FDS.block),
    '--ro-bind',
    resolvConf,
    '/etc/resolv.conf',
  ];
}

/** `ip -batch` lines: slirp's tap as --configure would set it, then a refusing route for each host destination. */
function tapCommands(): string[] {
  return [
    'link set tap0 mtu 65520 up',
    `addr add ${SLIRP_ADDRESS}/24 dev tap0`,
    `route add default via ${SLIRP_GATEWAY} dev tap0`,
    ...refusedDestinations().map((destination) => `route add prohibit ${destination}`),
  ];
}

function readAll(stream: Duplex): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    stream.once('end', () => resolve(text));
    stream.once('error', reject);
  });
}

function waitReady(slirp: ChildProcess, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`slirp4netns ${why}${stderr() ? `: ${stderr().trim().slice(-300)}` : ''}`));
    };
    const timer = setTimeout(() => fail(`was not ready within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    (slirp.stdio[3] as Duplex).once('data', () => {
      clearTimeout(timer);
      resolve();
    });
    slirp.once('exit', (code, signal) => fail(`exited (${signal ?? `exit ${code}`}) before it was ready`));
    slirp.once('error', (error) => fail(`could not start (${error.message})`));
  });
}

export interface EgressNetwork {
  /** Ends slirp4netns (its exit descriptor closing would end it too, should the worker die first). */
  close(): Promise<void>;
}

/**
 * Attaches the network to the held bwrap whose descriptors are `pipes` (info, block), then lets it go on. On any
 * failure the run stays held: the caller stops it, and nothing ran with a half-made network.
 */
export async function attachEgress(
  slirp4netns: string,
  pipes: { info: Duplex; block: Duplex },
): Promise<EgressNetwork> {
  const info = JSON.parse(await readAll(pipes.info)) as { 'child-pid'?: number };
  const pid = info['child-pid'];
  if (!Number.isInteger(pid)) throw new Error('bwrap did not say the sandbox’s pid');
  let stderr = '';
  const slirp = spawn(
    slirp4netns,
    [
      // Not --configure: it also sets up the loopback, which bwrap does at the same moment (one fails, EEXIST); the
      // tap is configured below instead.
      '--mtu=65520',
      '--disable-host-loopback',
      // slirp itself keeps no capability but binding, sees only /etc and /run, and makes few system calls.
      '--enable-sandbox',
      '--enable-seccomp',
      `--ready-fd=3`,
      `--exit-fd=4`,
      String(pid),
      'tap0',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  slirp.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
  const exited = new Promise<void>((resolve) => {
    if (slirp.exitCode !== null || slirp.signalCode !== null) resolve();
    slirp.once('exit', () => resolve());
    slirp.once('error', () => resolve());
  });
  // Waits for the exit, so no slirp4netns is left behind the run (not even unreaped).
  const close = async () => {
    (slirp.stdio[4] as Duplex | null)?.destroy();
    slirp.kill('SIGKILL');
    await exited;
  };
  try {
    await waitReady(slirp, () => stderr);
    await execa('nsenter', ['-t', String(pid), '-n', 'ip', '-batch', '-'], {
      input: tapCommands().join('\n'),
      env: { PATH: systemPath() },
      extendEnv: false,
    });
  } catch (error) {
    await close();
    throw error;
  }
  pipes.block.write('1');
  return { close };
}

/** One run's egress: made ready before the run starts, attached once bwrap runs, ended with the run. */
export interface EgressRun {
  resolvConf: string;
  onPipes(pipes: Duplex[]): void;
  /** Ends the network; returns why it could not be made, if it could not (the run was stopped then). */
  close(): Promise<Error | undefined>;
}

/** Checks slirp4netns is there and writes the run's resolv.conf into `dir`; `stop` stops a run whose network failed. */
export function prepareEgress(dir: string, stop: () => void): EgressRun {
  const slirp4netns = findSlirp4netns();
  const resolvConf = writeEgressResolvConf(dir);
  let attached: Promise<EgressNetwork | Error> | undefined;
  return {
    resolvConf,
    onPipes([info, block]) {
      if (!info || !block) throw new Error('an egress run needs two descriptors');
      attached = attachEgress(slirp4netns, { info, block }).catch((error: unknown) => {
        stop();
        return error instanceof Error ? error : new Error(String(error));
      });
    },
    async close() {
      const network = await attached;
      if (network instanceof Error) return network;
      await network?.close();
      return undefined;
    },
  };
}
