// The `temporal` CLI commands for a project's real ids, so a person can copy them as printed.

/** Lines that signal, query and list the runs of `project` (task ids from its plan) with the `temporal` binary at `bin`. */
export function formatTemporalHints(input: {
  bin: string;
  address: string;
  project: string;
  taskIds: string[];
}): string[] {
  const { address, project } = input;
  const bin = /\s/.test(input.bin) ? JSON.stringify(input.bin) : input.bin;
  const task = `task-${project}-${input.taskIds[0] ?? 'ID'}`;
  return [
    `The temporal CLI on these runs (the query needs a running \`taskloop worker\`; binary: ${input.bin}):`,
    `  ${bin} workflow query  --address ${address} --workflow-id ${task} --type state`,
    `  ${bin} workflow list   --address ${address} --query 'Project="${project}"'`,
    `  ${bin} workflow list   --address ${address} --query 'ExecutionStatus="Failed" AND Project="${project}"'`,
  ];
}
