// Cycle search over a dependency graph, kept apart from plan validation so each stays one idea.

/**
 * Finds dependency cycles, each as a closed path `[a, b, c, a]` meaning a depends on b, b on c, c on a.
 * Each cycle is reported once, rotated to start at its earliest node in `ids` order so output is stable.
 * Self-dependencies and unknown ids in `dependsOn` are ignored here (the caller reports them).
 */
export function findCycles(ids: string[], dependsOn: Map<string, string[]>): string[][] {
  const position = new Map(ids.map((id, index) => [id, index]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const seen = new Set<string>();
  const cycles: string[][] = [];

  const visit = (id: string): void => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of dependsOn.get(id) ?? []) {
      if (dep === id || !position.has(dep)) continue;
      const depState = state.get(dep);
      if (depState === 'visiting') {
        const cycle = rotateToEarliest(stack.slice(stack.indexOf(dep)), position);
        const key = cycle.join('\u0000');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle, cycle[0]!]);
        }
      } else if (depState === undefined) {
        visit(dep);
      }
    }
    stack.pop();
    state.set(id, 'done');
  };

  for (const id of ids) if (!state.has(id)) visit(id);
  return cycles;
}

function rotateToEarliest(cycle: string[], position: Map<string, number>): string[] {
  let start = 0;
  cycle.forEach((id, index) => {
    if (position.get(id)! < position.get(cycle[start]!)!) start = index;
  });
  return [...cycle.slice(start), ...cycle.slice(0, start)];
}
