// The attack suite, environments: set-up is repository code (the build backend, every package it installs), so it
// gets egress to the outside and nothing of the host. A set-up line tries the host's loopback, its own interface
// address, slirp's gateway (the host's loopback when not switched off) and a host abstract socket; none answers,
// while a package still comes from the index.
import { createServer, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { simpleGit } from 'simple-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureEnvironment } from '../../../activities/environments/index.js';
import { findSlirp4netns } from '../../../activities/sandbox/egress-network.js';
import { defaultLimits, type SandboxPolicy } from '../../../activities/sandbox/policy.js';
import { descendantsOf } from '../../support/crash.js';
import { makeRepo, removeDirs, useTempDirs } from '../../support/git-repo.js';

const socketName = `taskloop-setup-attack-${process.pid}-${Date.now()}`;
const servers: Server[] = [];
const repos: string[] = [];
/** Every connection a host listener took, by listener. */
const reached: string[] = [];

function listen(name: string, address: string | { port: number; host: string }) {
  return new Promise<number>((resolve) => {
    const server = createServer((socket) => {
      reached.push(name);
      socket.on('error', () => undefined).end('hello\n');
    });
    servers.push(server);
    const done = () => {
      const bound = server.address();
      resolve(typeof bound === 'object' && bound ? bound.port : 0);
    };
    if (typeof address === 'string') server.listen(address, done);
    else server.listen(address.port, address.host, done);
  });
}

/** The host's own IPv4 addresses besides loopback (a service bound to every address answers on them). */
const hostAddresses = Object.values(os.networkInterfaces())
  .flatMap((list) => list ?? [])
  .filter((address) => address.family === 'IPv4' && !address.internal)
  .map((address) => address.address);

let port = 0;
beforeAll(async () => {
  // One port on every address: loopback, the host's interface addresses and slirp's gateway all lead to it.
  port = await listen('tcp', { port: 0, host: '0.0.0.0' });
  await listen('abstract', `\0${socketName}`);
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await removeDirs(repos);
});

/** Tries each target and writes what happened into the environment (kept), so the test sees the attempts were made. */
const probe = (targets: string[]) =>
  [
    'import json, os, socket',
    'seen = {}',
    `for host in ${JSON.stringify(targets)}:`,
    '    s = socket.socket(); s.settimeout(5)',
    '    try:',
    `        s.connect((host, ${port})); seen[host] = "connected"`,
    '    except OSError as e:',
    '        seen[host] = type(e).__name__',
    'u = socket.socket(socket.AF_UNIX)',
    'try:',
    // Node binds an abstract name padded with NULs to the whole address: the same bytes here.
    `    u.connect("\\0${socketName}".ljust(108, "\\0")); seen["abstract"] = "connected"`,
    'except OSError as e:',
    '    seen["abstract"] = type(e).__name__',
    'open(os.path.join(os.environ.get("VIRTUAL_ENV", "."), "attack.json"), "w").write(json.dumps(seen))',
  ].join('\n');

describe('the attack suite: environment set-up', () => {
  const tempDir = useTempDirs();
  const policy = (): SandboxPolicy => ({
    mode: 'bwrap',
    network: false,
    limits: defaultLimits,
    hiddenPaths: [],
    shownPaths: [],
  });

  it('reaches no host listener nor host abstract socket, and still installs a package from the index', async () => {
    const targets = ['127.0.0.1', ...hostAddresses];
    // 10.0.2.2 is slirp's gateway, the host's loopback where that is not switched off (on the host it is nothing).
    const [repo, cacheDir] = await Promise.all([
      makeRepo({
        'attack.py': probe(targets),
        'probe_setup.py': probe([...targets, '10.0.2.2']),
        '.gitignore': 'attack.json\n',
      }),
      tempDir(),
    ]);
    repos.push(repo);
    const baseSha = (await simpleGit(repo).revparse(['HEAD'])).trim();
    // The control: run on the host, the same probe reaches every listener, so a refusal below is the sandbox's.
    await execa('python3', ['attack.py'], { cwd: repo, env: { PATH: process.env.PATH ?? '' }, extendEnv: false });
    const fromHost = JSON.parse(await readFile(path.join(repo, 'attack.json'), 'utf8')) as Record<string, string>;
    expect(
      Object.values(fromHost).every((outcome) => outcome === 'connected'),
      JSON.stringify(fromHost),
    ).toBe(true);
    expect(reached.sort()).toEqual(['abstract', ...targets.filter((host) => host !== '10.0.2.2').map(() => 'tcp')]);
    reached.length = 0;

    const ref = await ensureEnvironment({
      repo,
      repoPath: repo,
      baseSha,
      // The package install is the egress the set-up keeps; the index is reached in CI here.
      spec: { setup: ['python probe_setup.py', 'uv pip install six==1.16.0'] },
      cacheDir,
      policy: policy(),
      hostId: 'attack',
    });

    expect(reached).toEqual([]);
    const seen = JSON.parse(await readFile(path.join(ref.hostDir, 'attack.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(seen).sort()).toEqual([...targets, '10.0.2.2', 'abstract'].sort());
    expect(Object.values(seen).filter((outcome) => outcome === 'connected')).toEqual([]);
    const manifest = JSON.parse(await readFile(path.join(ref.hostDir, '..', 'manifest.json'), 'utf8')) as {
      packages: string[];
    };
    expect(manifest.packages).toContain('six==1.16.0');
    // No slirp4netns outlives its run.
    const comms = await Promise.all(
      (await descendantsOf(process.pid)).map(({ pid }) => readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')),
    );
    expect(comms.filter((comm) => comm.trim() === 'slirp4netns')).toEqual([]);
  }, 180_000);

  it('never runs a program a task names as environment.python: refused with the field named, its canary absent', async () => {
    const [repo, cacheDir, elsewhere] = await Promise.all([makeRepo(), tempDir(), tempDir()]);
    repos.push(repo);
    const baseSha = (await simpleGit(repo).revparse(['HEAD'])).trim();
    // A script set-up could write into its own environment (in the cache), and one anywhere else named like python.
    const canary = path.join(elsewhere, 'ran');
    const programs = [path.join(cacheDir, 'env-x', 'env', 'bin', 'python'), path.join(elsewhere, 'python3')];
    for (const program of programs) {
      await mkdir(path.dirname(program), { recursive: true });
      await writeFile(program, `#!/bin/sh\necho "$0" >> ${canary}\n`, { mode: 0o755 });
    }
    const refusals = await Promise.all(
      programs.map((python) =>
        ensureEnvironment({
          repo,
          repoPath: repo,
          baseSha,
          spec: { setup: ['true'], python },
          cacheDir,
          policy: policy(),
          hostId: 'attack',
        }).then(
          () => 'built',
          (error: Error) => error.message,
        ),
      ),
    );
    expect(refusals[0]).toMatch(/^environment\.python ".*\/env-x\/env\/bin\/python" lies in taskloop's work folder/);
    expect(refusals[1]).toMatch(/^environment\.python ".*\/python3" is not one of this worker's interpreters/);
    expect(existsSync(canary)).toBe(false);
  });

  it('refuses set-up without slirp4netns, naming the package, rather than share the host network', () => {
    expect(() => findSlirp4netns('/nonexistent')).toThrow(expect.objectContaining({ type: 'EnvironmentSetupFailed' }));
    expect(() => findSlirp4netns('/nonexistent')).toThrow(/apt-get install slirp4netns/);
  });
});
