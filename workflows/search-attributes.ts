// The custom search attributes taskloop shows in the Web UI, defined once: the server registers them from here,
// workflows upsert them from here, the CLI queries them from here.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const TaskIdKey = defineSearchAttributeKey('TaskId', SearchAttributeType.KEYWORD);
export const ProjectKey = defineSearchAttributeKey('Project', SearchAttributeType.KEYWORD);
export const PhaseKey = defineSearchAttributeKey('Phase', SearchAttributeType.KEYWORD);
export const TaskStatusKey = defineSearchAttributeKey('TaskStatus', SearchAttributeType.KEYWORD);
export const FailureClassKey = defineSearchAttributeKey('FailureClass', SearchAttributeType.KEYWORD);
export const AttemptKey = defineSearchAttributeKey('Attempt', SearchAttributeType.INT);
/** The strongest pytest-output pattern of the last failed test run (wrong_constant, cross_dep, ...), beside FailureClass. */
export const FailurePatternKey = defineSearchAttributeKey('FailurePattern', SearchAttributeType.KEYWORD);

export const taskloopSearchAttributes = [
  TaskIdKey,
  ProjectKey,
  PhaseKey,
  TaskStatusKey,
  FailureClassKey,
  AttemptKey,
  FailurePatternKey,
] as const;

const cliTypeNames: Record<SearchAttributeType, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** `Name=Type` pairs as `temporal server start-dev --search-attribute` and `temporal operator search-attribute create` take them. */
export function searchAttributeCliPairs(): { name: string; type: string }[] {
  return taskloopSearchAttributes.map((key) => ({ name: key.name, type: cliTypeNames[key.type] }));
}
