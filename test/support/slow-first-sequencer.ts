// Runs the files known to take longest first (figures of a full run on 2 cores, in docs/tests.md), so the forks end
// together instead of one long file running alone at the end. A fresh clone has no vitest cache of durations to sort
// by; beyond this list the default order holds.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const slowFirst = [
  'test/integration/crash-matrix-states.test.ts',
  'test/integration/crash-matrix-nodes.test.ts',
  'test/integration/eval-crash.test.ts',
  'test/integration/sandbox/orphans.test.ts',
  'test/integration/task-hosts.test.ts',
  'test/integration/cli-server-restart.test.ts',
  'test/integration/repo-by-url.test.ts',
  'test/integration/web-ui-screenshots.test.ts',
  'test/integration/providers-crash.test.ts',
  'test/integration/eval.test.ts',
];

function rank(spec: TestSpecification): number {
  const index = slowFirst.findIndex((file) => spec.moduleId.endsWith(file));
  return index < 0 ? slowFirst.length : index;
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: files of equal rank keep the default order, and the tiers their groupOrder.
    return sorted.sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b),
    );
  }
}
