// An eval whose instances show the bug: the fix's tests are part of the repository the coder starts from, the task's
// test command runs them, and the goal names them, as a developer who wrote the failing test first would hand the
// work over. Hidden (the default) is SWE-bench's setting: the coder never sees the tests that decide. Both settings
// are verified the same way (a fresh checkout, the fix's tests laid over, FAIL_TO_PASS and PASS_TO_PASS run).

/** Whether the fix's tests are hidden from the coder (the default) or shown to it. */
export type TestsSetting = 'hidden' | 'shown';

export const testsSettings: readonly TestsSetting[] = ['hidden', 'shown'];

/**
 * The goal of a shown instance: the instance's own, then the tests that show the bug and the command that runs them
 * (a harness without a test tool, such as the peer, runs it in its shell).
 */
export function shownGoal(
  goal: string,
  failToPass: readonly string[],
  command: readonly string[],
  env: Readonly<Record<string, string>>,
): string {
  const vars = Object.entries(env).map(([name, value]) => `${name}=${value} `);
  return (
    `${goal}\n\nThe tests that show the bug (they fail now and must pass after the fix): ${failToPass.join(', ')}. ` +
    `Run them with: ${vars.join('')}${[...command, ...failToPass].join(' ')}`
  );
}

/**
 * The task's test command for a shown instance: the instance's command narrowed to FAIL_TO_PASS and PASS_TO_PASS, so
 * the coder's runs and the test node run what the verification runs (pytest node ids; repeated ids run once).
 */
export function shownTestCommand(
  command: readonly string[],
  failToPass: readonly string[],
  passToPass: readonly string[],
): string[] {
  return [...command, ...new Set([...failToPass, ...passToPass])];
}
