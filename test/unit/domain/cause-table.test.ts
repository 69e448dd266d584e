// Every failure an activity can throw is a row of the cause table: the activities' sources are scanned for the
// ApplicationFailure types and Error classes they raise, so a new one without a row fails here. Only activities/ is
// scanned: a node's failure comes from an activity; what workflow code throws (TaskFailed, InvalidPlan, an update's
// refusal) ends or refuses a workflow and is no node's cause, and the CLI's and platform's errors never reach one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { causeKindOfFailureType, causeKinds, causeTable } from '../../../domain/cause-table.js';
import { causeOfActivityFailure } from '../../../domain/node-causes.js';
import { taskNodes } from '../../../domain/records.js';
import { projectRoot } from '../../../platform/paths.js';

// Thrown and caught inside one activity, never reaching a workflow.
const caughtInside: Record<string, string> = {
  TestsHeld: 'tests-after-coder.ts turns it into the coder result that says the tests did not start',
};

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The failure types each activity file raises: `type: 'X'`, `helper('X', …)` beside a typed create, `class X extends Error`. */
function raisedTypes(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourcesUnder(path.join(projectRoot, 'activities'))) {
    const text = readFileSync(file, 'utf8');
    const where = path.relative(projectRoot, file);
    const add = (pattern: RegExp) => {
      for (const match of text.matchAll(pattern)) if (!found.has(match[1]!)) found.set(match[1]!, where);
    };
    if (text.includes('ApplicationFailure')) {
      add(/\btype: '([A-Z][A-Za-z]+)'/g);
      // A helper that takes the type first (git/failures.ts `fail('InvalidRepo', …)`, run-tests.ts `invalid(…)`).
      add(/\b\w+\(\s*'([A-Z][A-Za-z]+)',/g);
      add(/\bnonRetryable\([^)]*?,\s*'([A-Z][A-Za-z]+)'\)/g);
    }
    // A plain Error reaches the workflow as an ApplicationFailure whose type is its name.
    add(/\bclass (\w+) extends Error\b/g);
  }
  return found;
}

describe('the cause table', () => {
  const raised = raisedTypes();

  it('finds the failures the activities throw (the scan itself works)', () => {
    for (const type of ['InvalidRepo', 'EmptyRepo', 'InvalidTestCommand', 'ProviderAuthFailed', 'ModelProblem'])
      expect(raised.has(type), type).toBe(true);
    expect(raised.size).toBeGreaterThan(30);
  });

  it('has a row for every failure type an activity throws', () => {
    const missing = [...raised]
      .filter(([type]) => caughtInside[type] === undefined && causeKindOfFailureType(type) === undefined)
      .map(([type, file]) => `${type} (thrown in ${file})`);
    expect(missing, 'add a row to domain/cause-table.ts with the type in its failureTypes').toEqual([]);
  });

  it('turns each thrown type into its row, never Unknown', () => {
    for (const [type] of raised) {
      if (caughtInside[type] !== undefined) continue;
      const cause = causeOfActivityFailure({
        activityType: 'any',
        failureType: type,
        message: 'm',
        nonRetryable: true,
      });
      expect(cause.kind, type).toBe(causeKindOfFailureType(type));
      expect(cause.kind, type).not.toBe('Unknown');
    }
  });

  it('names each failure type in one row only, and each row names the nodes that raise it', () => {
    const types = causeTable.flatMap((row) => row.failureTypes ?? []);
    expect(types.length).toBe(new Set(types).size);
    const known = new Set<string>([...taskNodes, 'learning', 'eval', 'land']);
    for (const row of causeTable) {
      expect(row.nodes.length, row.kind).toBeGreaterThan(0);
      for (const node of row.nodes) expect(known.has(node), `${row.kind}: ${node}`).toBe(true);
    }
  });

  it('has exactly one default row (no rule) for every cause kind', () => {
    for (const kind of causeKinds)
      expect(
        causeTable.filter((row) => row.kind === kind && row.rule === undefined),
        kind,
      ).toHaveLength(1);
  });
});
