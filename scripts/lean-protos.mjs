// The CLI bundle's copy of Temporal's protobuf definitions, cut to what a client uses. @temporalio/proto ships one
// descriptor (~580 KB of JSON, 1.6 MB as written) that every start turns into protobufjs reflection objects; the
// worker's core SDK types (`coresdk`), the Cloud operations API and the options only code generators read (HTTP
// routes, OpenAPI texts) are 38% of it. Of the rest, the bundle keeps the service methods its code calls and the
// types they reach, the enums of every package, and every type its code names: 489 of 833 types and enums. The
// worker is outside the bundle and keeps the whole package.
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

/**
 * What bundled code uses of the descriptor: the service methods it calls (`workflowService.startWorkflowExecution(`,
 * `operatorService.addSearchAttributes(`, …) and the protobuf names it writes (`temporal.api.enums.v1.EventType`).
 */
export function usedByCode(code) {
  const methods = new Set();
  for (const match of code.matchAll(/\b(?:workflowService|operatorService|healthService|testService)\.([a-z]\w*)\(/g))
    methods.add(match[1]);
  const names = new Set();
  for (const match of code.matchAll(/\b((?:temporal|google|grpc)\.[a-z][\w.]*\.[A-Z]\w*)/g)) names.add(match[1]);
  return { methods, names };
}

/**
 * Keeps, of every service, the methods `used.methods` names (lower camel case, as the client calls them), and of the
 * messages and enums those reached from those methods, the enums declared in a package, and those `used.names` names
 * (a name with a member after it, `...EventType.EVENT_TYPE_X`, counts as its type), each with the messages it is
 * declared in. Returns a new descriptor.
 */
export function keepUsed(descriptor, used, protobufjs) {
  const root = new protobufjs.Root().addJSON(descriptor);
  root.resolveAll();
  const keep = new Set();
  const keptMethods = new Set();
  const visit = (object) => {
    if (!object || keep.has(object.fullName)) return;
    keep.add(object.fullName);
    if (object instanceof protobufjs.Type) for (const field of object.fieldsArray) visit(field.resolvedType);
    // A message declared inside another stays only if that one does.
    if (object.parent instanceof protobufjs.Type) visit(object.parent);
  };
  const walk = (namespace) => {
    for (const object of namespace.nestedArray) {
      // Enums of a package (code reads them by name); one declared in a message goes with its message.
      if (object instanceof protobufjs.Enum && !(object.parent instanceof protobufjs.Type)) visit(object);
      if (object instanceof protobufjs.Service)
        for (const method of object.methodsArray) {
          if (!used.methods.has(method.name[0].toLowerCase() + method.name.slice(1))) continue;
          keptMethods.add(`${object.fullName}.${method.name}`);
          visit(method.resolvedRequestType);
          visit(method.resolvedResponseType);
        }
      if (object.nestedArray) walk(object);
    }
  };
  walk(root);
  for (const name of used.names) {
    const object = namedBy(root, name);
    if (object instanceof protobufjs.Type || object instanceof protobufjs.Enum) visit(object);
  }
  const copy = JSON.parse(JSON.stringify(descriptor));
  filterNested(copy, '', keep, keptMethods);
  return copy;
}

/**
 * The reflection object a dotted name in code points to: its longest prefix that is a path of nested names from the
 * root (protobufjs' own lookup also searches inside other namespaces, and so finds `grpc.status` somewhere).
 */
export function namedBy(root, name) {
  let found;
  let current = root;
  for (const part of name.split('.')) {
    current = current.nested?.[part];
    if (!current) break;
    found = current;
  }
  return found;
}

function filterNested(nested, prefix, keep, keptMethods) {
  for (const [name, node] of Object.entries(nested)) {
    const fullName = `${prefix}.${name}`;
    if (node.methods) {
      // Services stay (the client creates each one), with the methods it calls.
      for (const method of Object.keys(node.methods))
        if (!keptMethods.has(`${fullName}.${method}`)) delete node.methods[method];
    } else if ((node.fields || node.values) && !keep.has(fullName)) {
      delete nested[name];
      continue;
    }
    if (node.nested) {
      filterNested(node.nested, fullName, keep, keptMethods);
      if (Object.keys(node.nested).length === 0) delete node.nested;
    }
    if (!node.methods && !node.fields && !node.values && !node.nested) delete nested[name];
  }
}

const descriptorCall = /\.addJSON\((\{[\s\S]*\})\);\s*\n/;

/**
 * The json-module source with its descriptor pruned and passed as one JSON string (V8 parses JSON faster than the
 * same object written as a literal). Throws when the module's shape changed or a kept type names a dropped one.
 */
export function leanJsonModule(source, protobufjs, used) {
  const match = descriptorCall.exec(source);
  if (!match) throw new Error('lean-protos: json-module.js no longer has one .addJSON({...}) call');
  const withoutNamespaces = pruneDescriptor(JSON.parse(match[1]));
  const pruned = used ? keepUsed(withoutNamespaces, used, protobufjs) : withoutNamespaces;
  // Every reference a kept type makes must still resolve: resolveAll throws naming the first that does not.
  new protobufjs.Root().addJSON(pruned).resolveAll();
  const call = `.addJSON(JSON.parse(${JSON.stringify(JSON.stringify(pruned))}));\n`;
  return source.slice(0, match.index) + call + source.slice(match.index + match[0].length);
}

// The lines of protobufjs 8's Type#setup that generate the three converters (its indentation: 4 and 8 spaces).
const eagerConverters = [
  '    this.verify = verifier(this)({',
  '        types : types,',
  '        util  : util',
  '    });',
  '    this.fromObject = converter.fromObject(this)({',
  '        types : types,',
  '        util  : util,',
  '        C     : this.ctor',
  '    });',
  '    this.toObject = converter.toObject(this)({',
  '        types : types,',
  '        util  : util',
  '    });',
].join('\n');

/**
 * protobufjs' type.js, with `verify`, `fromObject` and `toObject` generated on their first call instead of with
 * `encode` and `decode` when a type is first used: a command decodes a few responses and converts almost nothing,
 * and the three are most of a message's generated code (HistoryEvent: 5.4 of 7.2 ms; `status` 340 -> 320 ms of CPU).
 * A type with a wrapper (google.protobuf.Any) keeps them eager: the wrapper binds them. Throws when the source
 * changed.
 */
export function lazyConvertersSource(source) {
  if (!source.includes(eagerConverters))
    throw new Error(
      'lean-protos: protobufjs/src/type.js no longer generates verify, fromObject and toObject as expected',
    );
  const lazy = `
    // taskloop's CLI bundle: generated on first call (scripts/lean-protos.mjs).
    var eager = wrappers[fullName] !== undefined;
    generateOnCall(this, "verify", eager, function(type) { return verifier(type)({ types: types, util: util }); });
    generateOnCall(this, "fromObject", eager, function(type) {
        return converter.fromObject(type)({ types: types, util: util, C: type.ctor });
    });
    generateOnCall(this, "toObject", eager, function(type) { return converter.toObject(type)({ types: types, util: util }); });
`;
  const helper = `
function generateOnCall(type, name, eager, generate) {
    if (eager) {
        type[name] = generate(type);
        return;
    }
    type[name] = function() {
        return (type[name] = generate(type)).apply(this, arguments);
    };
}
`;
  return source.replace(eagerConverters, lazy.trim()) + helper;
}

/**
 * An esbuild plugin that bundles the lean json-module in place of the package's, keeping what `used` names (see
 * keepUsed; everything the client could call without it). With `used: 'none'` the json-module is left empty: a
 * first build whose code usedByCode reads without the descriptor's own type names.
 */
export function leanProtosPlugin(resolveFrom, used) {
  const require = createRequire(resolveFrom);
  const protobufjs = require(require.resolve('protobufjs/light', { paths: [require.resolve('@temporalio/proto')] }));
  return {
    name: 'lean-protos',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]@temporalio[\\/]proto[\\/]protos[\\/]json-module\.js$/ }, (args) => ({
        contents:
          used === 'none'
            ? 'module.exports = {};\n'
            : leanJsonModule(readFileSync(args.path, 'utf8'), protobufjs, used),
        loader: 'js',
      }));
      builder.onLoad({ filter: /[\\/]protobufjs[\\/]src[\\/]type\.js$/ }, (args) => ({
        contents: lazyConvertersSource(readFileSync(args.path, 'utf8')),
        loader: 'js',
      }));
    },
  };
}
