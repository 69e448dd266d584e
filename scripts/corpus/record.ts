// Regenerates test/corpus/fixtures: applies each breakage to a fresh copy of a real project (PyPI sdist), runs its
// tests the way taskloop's test node does (its process-tree runner, pytest options and JUnit reader) and stores
// what the node sees: exit code, timeout, spawn error, output-too-large, counts, stdout and stderr (their tails
// beyond 200k / 20k characters: the classifier reads the whole output, as the test node does).
// Usage: npx tsx scripts/corpus/record.ts [breakage-id ...]   (needs python3 with pytest, and pip for the sdists)
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { tailExcerpt } from '../../domain/evidence.js';
import { parseJunitXml } from '../../activities/tests/junit.js';
import { withPytestOptions } from '../../activities/tests/pytest-command.js';
import { repositoryModules } from '../../activities/tests/repo-modules.js';
import { runProcessTree } from '../../activities/sandbox/process-tree.js';
import { breakages, projects, type Breakage } from './breakages.js';

export const fixturesDir = path.resolve('test/corpus/fixtures');
const STDOUT_TAIL = 200_000;
const STDERR_TAIL = 20_000;
/** A run stopped for too much output keeps only a short tail: the rest is the flood itself. */
const FLOOD_TAIL = 4_000;
const DEFAULT_TIMEOUT_MS = 180_000;

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const chosen = only.length === 0 ? breakages : breakages.filter((b) => only.includes(b.id));
  const work = await mkdtemp(path.join(os.tmpdir(), 'taskloop-corpus-'));
  try {
    const sources = await downloadProjects(work);
    await mkdir(fixturesDir, { recursive: true });
    for (const breakage of chosen) {
      const fixture = await record(breakage, sources[breakage.project], work);
      await writeFile(path.join(fixturesDir, `${breakage.id}.json`), `${JSON.stringify(fixture, null, 1)}\n`);
      console.log(
        `${breakage.id}: exit ${fixture.exitCode} timedOut=${fixture.timedOut} counts=${JSON.stringify(fixture.counts)}`,
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function downloadProjects(work: string): Promise<Record<Breakage['project'], string>> {
  const sdists = path.join(work, 'sdists');
  const specs = Object.values(projects).map((p) => p.sdist);
  await execa('python3', ['-m', 'pip', 'download', '--no-binary', ':all:', '--no-deps', '-d', sdists, ...specs]);
  const result = {} as Record<Breakage['project'], string>;
  for (const [name, project] of Object.entries(projects) as [
    Breakage['project'],
    (typeof projects)[Breakage['project']],
  ][]) {
    const archive = path.join(sdists, `${project.dir}.tar.gz`);
    await execa('tar', ['xzf', archive, '-C', sdists]);
    result[name] = path.join(sdists, project.dir);
  }
  return result;
}

async function record(breakage: Breakage, source: string, work: string) {
  const copy = path.join(work, breakage.id);
  await cp(source, copy, { recursive: true });
  for (const edit of breakage.edits) await applyEdit(copy, edit.file, edit.find, edit.replace);
  const ownModules = await repositoryModules(copy);
  const command = breakage.command ?? [...projects[breakage.project].command];
  const tries = breakage.runUntilFailure ?? 1;
  let fixture = await runOnce(copy, command, breakage, ownModules);
  for (let attempt = 1; attempt < tries && fixture.exitCode === 0; attempt += 1)
    fixture = await runOnce(copy, command, breakage, ownModules);
  await rm(copy, { recursive: true, force: true });
  return fixture;
}

async function runOnce(cwd: string, command: string[], breakage: Breakage, ownModules: string[]) {
  const junitPath = path.join(cwd, '..', `${breakage.id}-junit.xml`);
  await rm(junitPath, { force: true });
  const timeoutMs = breakage.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: os.homedir(),
    PYTHONDONTWRITEBYTECODE: '1',
    LANG: 'C.UTF-8',
  };
  const pytest = command.some(
    (arg, i) => path.basename(arg) === 'pytest' || (arg === '-m' && command[i + 1] === 'pytest'),
  );
  const stdoutFile = path.join(cwd, '..', `${breakage.id}-stdout.log`);
  const stderrFile = path.join(cwd, '..', `${breakage.id}-stderr.log`);
  const argv = pytest ? withPytestOptions(command, junitPath) : command;
  const run = await runProcessTree({
    argv,
    cwd,
    env,
    timeoutMs,
    stdoutFile,
    stderrFile,
    maxOutputBytes: 64 * 1024 * 1024,
  });
  const [stdout, stderr] = await Promise.all([readFile(stdoutFile, 'utf8'), readFile(stderrFile, 'utf8')]);
  const cases = existsSync(junitPath) ? parseJunitXml(await readFile(junitPath, 'utf8')) : [];
  const count = (outcome: string) => cases.filter((c) => c.outcome === outcome).length;
  return {
    id: breakage.id,
    project: breakage.project,
    command,
    ownModules,
    timeoutMs,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    commandNotFound: run.spawnError === 'ENOENT',
    outputTooLarge: run.outputTooLarge,
    junitFound: cases.length > 0 || existsSync(junitPath),
    counts: { passed: count('passed'), failed: count('failed'), errors: count('error'), skipped: count('skipped') },
    stdoutTail: tailExcerpt(stdout.split(cwd).join('.'), run.outputTooLarge ? FLOOD_TAIL : STDOUT_TAIL),
    stderrTail: tailExcerpt(stderr.split(cwd).join('.'), STDERR_TAIL),
  };
}

async function applyEdit(root: string, file: string, find: string | undefined, replace: string): Promise<void> {
  const target = path.join(root, file);
  const text = existsSync(target) ? await readFile(target, 'utf8') : '';
  if (find === undefined) {
    await writeFile(target, text + replace);
    return;
  }
  const at = text.indexOf(find);
  if (at === -1 || text.indexOf(find, at + 1) !== -1)
    throw new Error(`${file}: the text to replace must occur exactly once: ${JSON.stringify(find.slice(0, 60))}`);
  await writeFile(target, text.slice(0, at) + replace + text.slice(at + find.length));
}

await main();
