// The attack suite, part three (issue 51): a run that hides its failure by removing pytest's report and exiting 0;
// secrets in the names of files and folders; a .gitattributes naming a filter driver.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestTemporal } from '../support/temporal.js';
import { git, readEvents } from '../support/tasks.js';
import { guardTurns } from './attack-guard-files.js';
import { memoryCgroupAvailable } from './memory-limit.js';
import { causeOf, filesHolding, historyText, runAttack } from './attack-support.js';

const canLimitMemory = await memoryCgroupAvailable();
const declared = `declaredpath${Math.random().toString(36).slice(2, 10)}`;
const workerValue = `workerpath${Math.random().toString(36).slice(2, 10)}`;

// Before the workers start: they hold both in their environment (the second found by its name alone).
beforeAll(() => {
  process.env.ATTACK_PATH_DECLARED = declared;
  process.env.ATTACK_PATH_API_TOKEN = workerValue;
});
afterAll(() => {
  delete process.env.ATTACK_PATH_DECLARED;
  delete process.env.ATTACK_PATH_API_TOKEN;
});

describe('the attack suite: proofs and guards', () => {
  const t = useTestTemporal('attack-guards');

  it('a run that deleted its JUnit report and exited 0 is no pass: nothing committed, the task FAILED naming why', async () => {
    const forged = await runAttack(t, guardTurns.forgedPass());

    expect(forged.outcome.status).toBe('FAILED');
    expect(causeOf(forged.outcome)).toBe('TestRunUnproven');
    expect(forged.outcome.attempts[0]?.test).toMatchObject({ outcome: 'error', exitCode: 0 });
    expect(forged.outcome.attempts[0]?.failure?.reason).toContain('left no JUnit report');
    expect(forged.outcome.commit).toBeUndefined();
    expect(await git(forged.repo, 'branch', '--list', forged.branch)).toBe('');
  });

  it("a secret in a file or folder name and a .gitattributes filter are the review's findings (the first refused at the test node): nothing committed, paths redacted", async () => {
    const [named, attributes] = await Promise.all([
      runAttack(t, guardTurns.secretPaths(declared, workerValue), {
        extra: { secretEnvNames: ['ATTACK_PATH_DECLARED'] },
      }),
      runAttack(t, guardTurns.attributesFilter()),
    ]);

    expect(named.outcome.status).toBe('FAILED');
    expect(named.outcome.commit).toBeUndefined();
    expect(await git(named.repo, 'branch', '--list', named.branch)).toBe('');
    // The review's path rules refused the change at the test node, before any test ran.
    expect(named.outcome.attempts[0]?.failure?.node).toBe('test');
    const findings = named.outcome.attempts[0]?.test?.refused ?? [];
    expect(
      findings
        .filter((finding) => finding.rule === 'secret_in_path')
        .map((finding) => finding.file)
        .sort(),
    ).toEqual([
      '[redacted].txt',
      'b64_[redacted].txt',
      'dir_[redacted]/data.txt',
      'notes_[redacted].txt',
      'split_[redacted].txt',
    ]);
    expect(named.outcome.attempts[0]?.failure?.cause).toMatchObject({ kind: 'ReviewFinding', rule: 'secret_in_path' });
    const encoded = Buffer.from(declared).toString('base64url');
    expect(await historyText(t.client, named.workflowId)).not.toContain(`${declared.slice(0, 8)}/${declared.slice(8)}`);
    for (const value of [declared, workerValue, encoded]) {
      expect(await historyText(t.client, named.workflowId)).not.toContain(value);
      // The worker's own artifacts (the coder's transcript) are scrubbed of the values, not of their encoded forms.
      if (value !== encoded) expect(await filesHolding(path.join(t.host.workDir, 'artifacts'), value)).toEqual([]);
      expect(JSON.stringify(await readEvents(t.host.eventsFile))).not.toContain(value);
      // In no object of the repository: no tree ever named the paths.
      expect(await git(named.repo, 'log', '--all', '--name-only', '--format=')).not.toContain(value);
    }

    expect(attributes.outcome.status).toBe('FAILED');
    expect(attributes.outcome.commit).toBeUndefined();
    expect(await git(attributes.repo, 'branch', '--list', attributes.branch)).toBe('');
    expect(attributes.outcome.attempts[0]?.failure?.cause).toMatchObject({ rule: 'git_attributes_driver' });
  });

  // The whole run's memory is bounded where the worker can make a memory cgroup (root, cgroup v1 memory or v2 with the
  // memory controller): elsewhere only each process's address space is (docs/security.md).
  it.runIf(canLimitMemory)(
    'three processes holding memory together over the limit end the run: nothing committed',
    async () => {
      const memory = await runAttack(t, guardTurns.memoryHolders(), { extra: { limits: { memoryMb: 512 } } });

      expect(memory.outcome.status).toBe('FAILED');
      expect(causeOf(memory.outcome)).toBe('ResourceLimit');
      expect(memory.outcome.attempts[0]?.failure?.reason).toContain('memory of the whole run (512 MB');
      expect(memory.outcome.commit).toBeUndefined();
      expect(await git(memory.repo, 'branch', '--list', memory.branch)).toBe('');
    },
  );

  it('/tmp and the worktree share one written-bytes limit: nothing committed, the cause says so', async () => {
    const written = await runAttack(t, guardTurns.tmpAndWorktree(), {
      extra: { limits: { writtenMb: 16, fileSizeMb: 100 } },
    });

    expect(written.outcome.status).toBe('FAILED');
    expect(causeOf(written.outcome)).toBe('ResourceLimit');
    expect(written.outcome.attempts[0]?.failure?.reason).toContain(
      'written bytes (over 16 MB added to the worktree and /tmp)',
    );
    expect(written.outcome.commit).toBeUndefined();
    expect(await git(written.repo, 'branch', '--list', written.branch)).toBe('');
  });
});
