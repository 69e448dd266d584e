// The CLI bundle's copy of Temporal's protobuf definitions, cut to what a client uses. @temporalio/proto ships one
// descriptor (~580 KB of JSON, 1.6 MB as written) that every start turns into protobufjs reflection objects; the
// worker's core SDK types (`coresdk`), the Cloud operations API and the options only code generators read (HTTP
// routes, OpenAPI texts) are 38% of it. The worker is outside the bundle and keeps the whole package.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** Namespaces a client never encodes or decodes, as paths from the root. */
export const droppedNamespaces = [['coresdk'], ['temporal', 'api', 'cloud']];

/**
 * Removes the dropped namespaces and every option protobufjs does not read at run time: custom options, written
 * `(name)` (protobufjs reads plain ones such as `packed` or `deprecated`). Returns a new descriptor.
 */
export function pruneDescriptor(descriptor) {
  const copy = JSON.parse(JSON.stringify(descriptor));
  for (const namespacePath of droppedNamespaces) {
    const parent = namespacePath.slice(0, -1).reduce((node, name) => node?.[name]?.nested, copy);
    const name = namespacePath.at(-1);
    if (!parent || !(name in parent)) throw new Error(`lean-protos: no namespace ${namespacePath.join('.')} to drop`);
    delete parent[name];
  }
  dropCustomOptions(copy);
  return copy;
}

function dropCustomOptions(node) {
  if (Array.isArray(node)) {
    node.forEach(dropCustomOptions);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'options' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const option of Object.keys(value)) if (option.startsWith('(')) delete value[option];
      if (Object.keys(value).length === 0) delete node[key];
    } else dropCustomOptions(value);
  }
}

const descriptorCall = /\.addJSON\((\{[\s\S]*\})\);\s*\n/;

/**
 * The json-module source with its descriptor pruned and passed as one JSON string (V8 parses JSON faster than the
 * same object written as a literal). Throws when the module's shape changed or a kept type names a dropped one.
 */
export function leanJsonModule(source, protobufjs) {
  const match = descriptorCall.exec(source);
  if (!match) throw new Error('lean-protos: json-module.js no longer has one .addJSON({...}) call');
  const pruned = pruneDescriptor(JSON.parse(match[1]));
  // Every reference a kept type makes must still resolve: resolveAll throws naming the first that does not.
  new protobufjs.Root().addJSON(pruned).resolveAll();
  const call = `.addJSON(JSON.parse(${JSON.stringify(JSON.stringify(pruned))}));\n`;
  return source.slice(0, match.index) + call + source.slice(match.index + match[0].length);
}

/** An esbuild plugin that bundles the lean json-module in place of the package's. */
export function leanProtosPlugin(resolveFrom) {
  const require = createRequire(resolveFrom);
  const protobufjs = require(require.resolve('protobufjs/light', { paths: [require.resolve('@temporalio/proto')] }));
  return {
    name: 'lean-protos',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]@temporalio[\\/]proto[\\/]protos[\\/]json-module\.js$/ }, (args) => ({
        contents: leanJsonModule(readFileSync(args.path, 'utf8'), protobufjs),
        loader: 'js',
      }));
    },
  };
}
