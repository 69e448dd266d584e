// A part of a suite by its instances' tags (`taskloop eval --tags one-line`): the instances that carry any of the
// tags given, in the suite's order; none at all is a problem that names the tags the suite has.
import type { Suite } from './suite.js';

export type SelectByTagsResult = { success: true; data: Suite } | { success: false; error: string };

export function selectByTags(suite: Suite, tags: readonly string[]): SelectByTagsResult {
  if (tags.length === 0) return { success: true, data: suite };
  const wanted = new Set(tags);
  const instances = suite.instances.filter((instance) => instance.tags?.some((tag) => wanted.has(tag)));
  if (instances.length > 0) return { success: true, data: { ...suite, instances } };
  const known = [...new Set(suite.instances.flatMap((instance) => instance.tags ?? []))].sort();
  return {
    success: false,
    error: `no instance of suite ${suite.name} has the tags ${tags.join(', ')}; its instances' tags: ${known.length > 0 ? known.join(', ') : '(none)'} (fix: pass one of those, or add tags: [...] to its instances)`,
  };
}
