// bench/probe/first_reply_draws.py against a local server speaking the OpenAI chat protocol: each draw's reply is
// applied to a copy of examples/calc and its tests decide, so the figure it prints is the tests' and not the replies'.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');
const calc = path.join(root, 'examples/calc');

const call = (old: string, replacement: string) =>
  '```json\n' +
  JSON.stringify({ name: 'replace_in_file', arguments: { path: 'calc.py', old, new: replacement } }) +
  '\n```';
const right = [
  'n = len(ordered)',
  '    if n % 2:',
  '        return ordered[n // 2]',
  '    return (ordered[n // 2 - 1] + ordered[n // 2]) / 2',
].join('\n');
// Seed 1 fixes the median, seed 2 sends the test's assertion as old (found in no module), seed 3 an edit that is
// applied and wrong (odd lengths still right, even ones not).
const replyBySeed: Record<number, string> = {
  1: call('return ordered[len(ordered) // 2]', right),
  2: call('assert median([1, 2]) == 1.5', 'assert median([1, 2]) == 2'),
  3: call('return ordered[len(ordered) // 2]', 'return ordered[(len(ordered) - 1) // 2]'),
};

let server: http.Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (dir) await rm(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

async function scriptedServer(requests: unknown[]): Promise<string> {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { seed: number };
      requests.push({ url: request.url, ...parsed });
      const content = replyBySeed[parsed.seed] ?? 'no call';
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}/v1`;
}

describe('first_reply_draws.py', () => {
  it('sends the opening of the transcript once a seed and counts only the draws whose applied edit passes the tests', async () => {
    const requests: unknown[] = [];
    const baseUrl = await scriptedServer(requests);
    dir = await mkdtemp(path.join(os.tmpdir(), 'draws-test-'));
    const transcript = path.join(dir, 'transcript.json');
    const opening = [
      { role: 'system', content: 'You fix a bug.' },
      { role: 'user', content: 'Fix calc.median.' },
      { role: 'assistant', content: 'a later turn, not sent' },
    ];
    await writeFile(transcript, JSON.stringify(opening));
    const calcBefore = await readFile(path.join(calc, 'calc.py'), 'utf8');

    const { stdout } = await run(
      'python3',
      [
        path.join(root, 'bench/probe/first_reply_draws.py'),
        ...['--transcript', transcript, '--base-url', baseUrl, '--repo', calc],
        ...['--tests', 'tests/test_calc.py::test_median', '--draws', '3', '--temperature', '0.7'],
      ],
      { cwd: root, timeout: 120_000 },
    );

    expect(stdout).toMatch(/calc seed 1: PASS edits=1 applied=1/);
    expect(stdout).toMatch(/calc seed 2: fail edits=1 applied=0/);
    expect(stdout).toMatch(/calc seed 3: fail edits=1 applied=1/);
    expect(stdout).toMatch(/^RESULT calc 1 of 3$/m);
    expect(requests).toEqual(
      [1, 2, 3].map((seed) => ({
        url: '/v1/chat/completions',
        messages: opening.slice(0, 2),
        temperature: 0.7,
        seed,
        max_tokens: 512,
      })),
    );
    // The draws edit copies: the example itself is as it was.
    expect(await readFile(path.join(calc, 'calc.py'), 'utf8')).toBe(calcBefore);
  }, 150_000);
  it('checks an instance first: the base must fail its tests and the fix commit pass them, else no figure', async () => {
    const baseUrl = await scriptedServer([]);
    dir = await mkdtemp(path.join(os.tmpdir(), 'draws-test-'));
    const repo = path.join(dir, 'repo');
    await cp(calc, repo, { recursive: true });
    const git = (...args: string[]) => run('git', ['-C', repo, ...args]);
    await git('init', '-q');
    await git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'empty');
    await git('add', '-A');
    await git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'base');
    const source = await readFile(path.join(repo, 'calc.py'), 'utf8');
    const fixed = source.replace('return ordered[len(ordered) // 2]', right);
    await writeFile(path.join(repo, 'calc.py'), fixed);
    await git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-am', 'fix median');
    const fix = (await git('rev-parse', 'HEAD')).stdout.trim();
    const instance = (id: string, fixCommit: string) => ({
      id,
      mirror: repo,
      fixCommit,
      failToPass: ['tests/test_calc.py::test_median'],
      testCommand: ['python3', '-m', 'pytest', '-p', 'no:cacheprovider'],
    });
    // The second names the buggy commit as its fix: that change does not pass the tests, so the harness must refuse it.
    const base = (await git('rev-parse', 'HEAD^')).stdout.trim();
    const suite = path.join(dir, 'suite.json');
    await writeFile(suite, JSON.stringify({ instances: [instance('median', fix), instance('no-fix', base)] }));
    const transcript = path.join(dir, 'transcript.json');
    await writeFile(
      transcript,
      JSON.stringify([
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ]),
    );
    const probe = (id: string) =>
      run(
        'python3',
        [
          path.join(root, 'bench/probe/first_reply_draws.py'),
          ...['--transcript', transcript, '--base-url', baseUrl, '--suite', suite, '--instance', id, '--draws', '2'],
        ],
        { cwd: root, timeout: 120_000 },
      );

    const { stdout } = await probe('median');
    expect(stdout).toContain("harness: the base fails the tests and the fix's change passes them");
    expect(stdout).toMatch(/^RESULT median 1 of 2$/m);
    await expect(probe('no-fix')).rejects.toMatchObject({
      stderr: expect.stringContaining("the fix's own change fails these tests here"),
    });
  }, 150_000);
});
