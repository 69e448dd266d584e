// The class of a test-node cause as causes.md lists it. Stand-in until helper `classes` lands the cause → class
// table in domain/failure-causes.ts; then the corpus test should read that table instead.
import type { CauseKind } from '../../domain/failure-causes.js';

const classByCause: Partial<Record<CauseKind, string>> = {
  TestsFailed: 'code_defect',
  CollectionError: 'code_defect',
  MissingThirdPartyModule: 'environment_problem',
  MissingEnvVar: 'environment_problem',
  ConnectionRefused: 'environment_problem',
  TestUsageError: 'environment_problem',
  NoTestsCollected: 'environment_problem',
  TestTimeout: 'environment_problem',
  OutputTooLarge: 'environment_problem',
  TestCommandNotFound: 'environment_problem',
  SandboxDenied: 'code_defect',
  ResourceLimit: 'code_defect',
};

/** The class causes.md gives a test-node cause; `unclassified` for any other (free text goes to the word rules). */
export function classOfCause(kind: CauseKind): string {
  return classByCause[kind] ?? 'unclassified';
}
