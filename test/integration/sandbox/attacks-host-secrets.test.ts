// The attack suite, part two: what the smaller root keeps out (host unix sockets, taskloop's state), a traceback
// that names a host file for the next attempt's context, the bytes a run may write, and secrets in names and goals.
import { execa } from 'execa';
import { createServer, type Server } from 'node:net';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateDir } from '../../../platform/paths.js';
import { learningWorkflowId } from '../../../workflows/learning/messages.js';
import { removeDirs } from '../../support/git-repo.js';
import { useTestTemporal } from '../support/temporal.js';
import { readEvents } from '../support/tasks.js';
import { attackTurns, socketClientPy } from './attack-files.js';
import { CANARY, causeOf, filesHolding, historyText, makeCanaryHome, runAttack } from './attack-support.js';

const home = await makeCanaryHome();
const declared = `declaredsecret${Math.random().toString(36).slice(2, 10)}`;
const socketName = `taskloop-attack-${process.pid}-${Date.now()}`;
// Under the host's run folder, where database and agent sockets live; the root bind once showed every one of them.
const socketPath = path.join('/run', `${socketName}.sock`);
const servers: Server[] = [];

const listen = (address: string) =>
  new Promise<void>((resolve) => {
    const server = createServer((socket) => socket.on('error', () => undefined).end('hello\n'));
    servers.push(server);
    server.listen(address, resolve);
  });

// Before the workers start: they hold the declared secret in their environment.
beforeAll(async () => {
  process.env.ATTACK_DECLARED_VALUE = declared;
  // The test run's state folder starts empty (test/support/run-isolation.ts): something in it for the attack to find.
  await mkdir(stateDir(), { recursive: true });
  await writeFile(path.join(stateDir(), 'server.pid'), '1\n');
  await listen(socketPath);
  await listen(`\0${socketName}`);
});
afterAll(async () => {
  delete process.env.ATTACK_DECLARED_VALUE;
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await rm(socketPath, { force: true });
  await removeDirs([home]);
});

describe('the attack suite: the host, learning, limits and secrets', () => {
  const t = useTestTemporal('attack-host');

  it('keeps sockets and state out, reads no host file for the coder, bounds writes, and keeps secrets out of history', async () => {
    const secretTask = { secretEnvNames: ['ATTACK_DECLARED_VALUE'] };
    const [host, traceback, flood, secretName, secretGoal] = await Promise.all([
      runAttack(t, attackTurns.host(), {
        env: {
          ATTACK_SOCKET: socketPath,
          ATTACK_ABSTRACT: socketName,
          ATTACK_EVENTS: t.host.eventsFile,
          ATTACK_STATE: stateDir(),
        },
      }),
      runAttack(t, attackTurns.traceback(), {
        env: { ATTACK_TARGET: path.join(home, 'leak.py') },
        extra: { maxRetries: 1 },
      }),
      runAttack(t, attackTurns.writeFlood(), { extra: { limits: { writtenMb: 16, fileSizeMb: 100 } } }),
      runAttack(t, attackTurns.secretName(declared), { extra: secretTask }),
      // Started as a CLI elsewhere (or Temporal's own tools) would: nothing checked the goal before the worker.
      runAttack(t, attackTurns.host(), { goal: `fix add, then log in with ${declared}`, extra: secretTask }),
    ]);

    const hostCases = host.outcome.attempts[0]?.test?.cases.filter((c) => c.id.startsWith('tests/test_host.py::'));
    expect(hostCases?.map((c) => c.id.split('::')[1]).sort()).toEqual([
      'test_abstract_socket',
      'test_filesystem_socket',
      'test_list_state_folder',
      'test_read_events_file',
    ]);
    expect(hostCases?.filter((c) => c.outcome === 'passed')).toEqual([]);
    // What the attacks looked for is there on the host: the sandbox, not an empty target, kept them out. The same
    // socket client run on the host connects to both (an unpadded abstract name once made this pass for nothing).
    const control = await execa(
      'python3',
      ['-c', `${socketClientPy}\ntest_filesystem_socket()\ntest_abstract_socket()\nprint("reached both")`],
      {
        env: { PATH: process.env.PATH, ATTACK_SOCKET: socketPath, ATTACK_ABSTRACT: socketName },
        reject: false,
        extendEnv: false,
      },
    );
    expect(control.stdout, control.stderr).toBe('reached both');
    expect((await readdir(stateDir())).length).toBeGreaterThan(0);
    expect((await readFile(t.host.eventsFile, 'utf8')).length).toBeGreaterThan(0);

    // Two attempts ran; the second one's context was built from a traceback naming ../../…/leak.py: nothing of that
    // host file reached an artifact (the coder's transcript holds every prompt), an event or the history.
    expect(traceback.outcome.attempts).toHaveLength(2);
    expect(await filesHolding(path.join(t.host.workDir, 'artifacts'), CANARY)).toEqual([]);
    expect(JSON.stringify(await readEvents(t.host.eventsFile))).not.toContain(CANARY);
    expect(await historyText(t.client, traceback.workflowId)).not.toContain(CANARY);

    // Three files of 12 MB, each under the per-file cap, are 36 MB written: over the run's 16 MB.
    expect(causeOf(flood.outcome)).toBe('ResourceLimit');
    expect(flood.outcome.attempts[0]?.failure?.reason).toContain('written bytes');

    // A file named after a declared secret: its name is scrubbed wherever it would reach history or an event.
    expect(secretName.outcome.attempts[0]?.coder?.changedFiles).toContain('notes_[redacted].py');
    expect(await historyText(t.client, secretName.workflowId)).not.toContain(declared);
    expect(await filesHolding(path.join(t.host.workDir, 'artifacts'), declared)).toEqual([]);
    expect(JSON.stringify(await readEvents(t.host.eventsFile))).not.toContain(declared);

    // A goal holding the declared secret's value: the worker stops the task before any model call, never echoing it.
    expect(secretGoal.outcome.status).toBe('FAILED');
    expect(causeOf(secretGoal.outcome)).toBe('SecretInGoal');
    expect(secretGoal.outcome.attempts[0]?.failure?.failureClass).toBe('environment_problem');
    expect(secretGoal.outcome.attempts[0]?.failure?.reason).not.toContain(declared);
    expect(secretGoal.outcome.attempts[0]?.coder).toBeUndefined();
    // Its failure still reaches the project's learning workflow, which serves tasks that do not declare the secret: without it.
    const learning = learningWorkflowId(secretGoal.outcome.project, 'coder');
    expect(await historyText(t.client, learning)).toContain('log in with [redacted]');
    expect(await historyText(t.client, learning)).not.toContain(declared);
    expect(await filesHolding(t.host.workDir, declared)).toEqual([]);
  });
});
