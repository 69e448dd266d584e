// Validates a suite read from YAML: the schema, then the cross-field rules; a discriminated result, never a throw.
import { crossFieldIssues, formatSuiteIssues, type SuiteIssue } from './suite-errors.js';
import { suiteSchema, type Suite } from './suite.js';

export type ParseSuiteResult = { success: true; data: Suite } | { success: false; issues: SuiteIssue[] };

export function parseSuite(input: unknown): ParseSuiteResult {
  const parsed = suiteSchema.safeParse(input);
  if (!parsed.success) return { success: false, issues: formatSuiteIssues(parsed.error.issues, input) };
  const issues = crossFieldIssues(parsed.data);
  return issues.length > 0 ? { success: false, issues } : { success: true, data: parsed.data };
}
