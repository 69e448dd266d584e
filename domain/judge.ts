// The verification verdict of one attempt: tests pass, acceptance tests pass, review passed; evidence says what was checked.
import type { Finding, JudgeResult, ModelVerdict, ReviewResult, TestCaseResult, TestRunResult } from './records.js';

/**
 * True when a pytest case id is the acceptance id or names the same test: ids equal, one ends with `::` + the other,
 * the case id ends with the acceptance id at a path or `::` boundary, the acceptance id names the case's file or
 * class (`tests/test_x.py` covers `tests/test_x.py::test_y`), or the acceptance id omits a parametrisation (`[...]`).
 */
export function matchesAcceptanceId(caseId: string, acceptanceId: string): boolean {
  const candidates = acceptanceId.includes('[') ? [caseId] : [caseId, caseId.replace(/\[.*\]$/, '')];
  return candidates.some(
    (id) =>
      id === acceptanceId ||
      id.endsWith(`::${acceptanceId}`) ||
      acceptanceId.endsWith(`::${id}`) ||
      id.endsWith(`/${acceptanceId}`) ||
      id.startsWith(`${acceptanceId}::`),
  );
}

type AcceptanceState = 'passed' | 'failed' | 'missing';

/** Every matching case must pass, and at least one must exist. */
function checkAcceptance(acceptanceId: string, cases: TestCaseResult[]): AcceptanceState {
  const matched = cases.filter((testCase) => matchesAcceptanceId(testCase.id, acceptanceId));
  if (matched.length === 0) return 'missing';
  return matched.every((testCase) => testCase.outcome === 'passed') ? 'passed' : 'failed';
}

/** Judges an attempt on its test run, its review and the task's acceptance tests. */
export function judgeAttempt(input: {
  tests: TestRunResult;
  review: ReviewResult;
  acceptanceTests: string[];
}): JudgeResult {
  const { tests, review } = input;
  const { counts } = tests;
  const evidence: string[] = [
    `tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.errors} errors, ${counts.skipped} skipped (outcome ${tests.outcome})`,
  ];
  const findings: Finding[] = [];
  if (tests.outcome !== 'passed') {
    const why = tests.reason ? `: ${tests.reason}` : '';
    findings.push({
      rule: 'tests_failed',
      message: `test run ${tests.outcome}, ${counts.failed} failed and ${counts.errors} errors of ${counts.total}${why}`,
    });
  }

  let acceptancePassed = 0;
  for (const acceptanceId of input.acceptanceTests) {
    const state = checkAcceptance(acceptanceId, tests.cases);
    evidence.push(`acceptance ${acceptanceId}: ${state}`);
    if (state === 'passed') acceptancePassed += 1;
    else if (state === 'failed') {
      findings.push({ rule: 'acceptance_failed', message: `acceptance test ${acceptanceId} did not pass` });
    } else {
      const cut = tests.casesTruncated ? ' (the case list was truncated)' : '';
      findings.push({
        rule: 'acceptance_missing',
        message: `acceptance test ${acceptanceId} was not found among the test results${cut}`,
      });
    }
  }
  if (input.acceptanceTests.length > 0) {
    evidence.push(`acceptance: ${acceptancePassed} of ${input.acceptanceTests.length} passed`);
  }

  evidence.push(`review: ${review.passed ? 'passed' : 'failed'} with ${review.findings.length} findings`);
  if (!review.passed) {
    const rules = [...new Set(review.findings.map((finding) => finding.rule))];
    const detail = rules.length > 0 ? `: ${rules.join(', ')}` : '';
    findings.push({ rule: 'review_failed', message: `review did not pass${detail}` });
  }

  return { passed: findings.length === 0, evidence, findings };
}

/** The rule judge's result with the judge model's verdict merged in: it passes only when both pass. */
export function withModelVerdict(judgment: JudgeResult, verdict: ModelVerdict): JudgeResult {
  return {
    ...judgment,
    passed: judgment.passed && verdict.passed,
    findings: [...judgment.findings, ...verdict.findings],
    agent: verdict.agent,
    modelUsage: verdict.modelUsage,
  };
}
