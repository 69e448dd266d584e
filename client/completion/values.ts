// What completion offers where a value belongs: the closed lists (statuses, classes, modes, runtimes, the bundled
// models and the providers' model forms), and the words looked up when completing (task ids from the server, the
// environments built on this machine). Every list comes from where the commands check the value, never from prose.
import { approvalModes } from '../../domain/approval.js';
import { testsSettings } from '../../domain/eval/shown-tests.js';
import { failureClasses } from '../../domain/failure-class.js';
import { providers } from '../../domain/providers.js';
import { localModelNames } from '../../platform/local-model/pins.js';
import { localRuntimes } from '../../platform/local-model/runtime-names.js';
import { executionStatuses, taskStatuses, workflowTypes } from '../projects/list-query.js';

/** The model specs to offer: each bundled local model, and every remote provider's example. */
const modelSpecs = [
  ...localModelNames.map((name) => `local:${name}`),
  ...providers.filter((provider) => 'envVendor' in provider).map((provider) => provider.example),
];

/**
 * The values of flags that take one of a list. A key `--flag` holds for every command that has the flag; a key
 * `command --flag` or `command sub --flag` is that command's own list and comes first.
 */
export const flagValues: Record<string, readonly string[]> = {
  '--status': taskStatuses,
  '--class': failureClasses,
  '--execution-status': executionStatuses,
  '--type': Object.keys(workflowTypes),
  '--sandbox': ['bwrap', 'none'],
  '--approval': approvalModes,
  '--runtime': localRuntimes,
  '--tests': testsSettings,
  '--model': modelSpecs,
  'eval --model': [...modelSpecs, 'oracle', 'noop'],
  'model install --model': [...localModelNames, 'all'],
  'model serve --model': localModelNames,
  completion: ['bash', 'zsh', 'fish'],
};

/** Words looked up while completing, by `taskloop completion words KIND`. */
export const lookedUpKinds = ['tasks', 'environments'] as const;
export type LookedUpKind = (typeof lookedUpKinds)[number];

/** Flags whose values are looked up (besides the fixed ones listed). */
export const lookedUpFlags: Record<string, { fixed: readonly string[]; kind: LookedUpKind }> = {
  '--environment': { fixed: ['auto'], kind: 'environments' },
};

/** The commands whose first word is a task, project or workflow id: completed with the server's task ids. */
export const taskIdCommands = [
  'status',
  'show',
  'watch',
  'retry',
  'pause',
  'resume',
  'cancel',
  'approve',
  'request-changes',
  'reject',
];
