// An agent version's own tool list (agents/registry.json `tools`) is checked against the tools there are before the
// first model call: a misspelt name would otherwise leave the model without a tool and nobody told why.
import { ApplicationFailure } from '@temporalio/common';
import { coderTools } from './tools/registry.js';

/** Throws a non-retryable failure naming each unknown tool, the version and the tools there are. */
export function refuseUnknownTools(names: readonly string[], agent: string): void {
  const known = coderTools.map((tool) => tool.spec.name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  throw ApplicationFailure.create({
    type: 'InvalidAgentRegistry',
    nonRetryable: true,
    message: `${agent} lists tools that do not exist: ${unknown.join(', ')}; fix its "tools" in the agent registry (known: ${known.join(', ')})`,
  });
}
