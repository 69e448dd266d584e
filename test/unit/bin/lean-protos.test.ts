// The CLI bundle's protobuf descriptor is cut down (scripts/lean-protos.mjs): what it keeps must encode and decode
// exactly as the full package does, and a type it would leave dangling must stop the build.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  keepUsed,
  lazyConvertersSource,
  leanJsonModule,
  namedBy,
  pruneDescriptor,
  usedByCode,
} from '../../../scripts/lean-protos.mjs';
import { projectRoot } from '../../../platform/paths.js';

const require = createRequire(import.meta.url);
const jsonModulePath = require.resolve('@temporalio/proto/protos/json-module.js');
const protobufjs = require(
  require.resolve('protobufjs/light', { paths: [jsonModulePath] }),
) as typeof import('protobufjs');
const fullRoot = require(jsonModulePath) as import('protobufjs').Root;

/** Runs a json-module source as the bundle would, with its own registry of roots. */
function loadModule(source: string): import('protobufjs').Root {
  const module = { exports: {} as unknown };
  const fresh = { ...protobufjs, roots: {} };
  const requireLight = (id: string) => (id === 'protobufjs/light' ? fresh : require(id));
  vm.runInThisContext(`(function (require, module, exports) {${source}\n})`)(requireLight, module, module.exports);
  return module.exports as import('protobufjs').Root;
}

/** The descriptor the built bundle carries (it passes it to addJSON as one JSON string), and the code around it. */
function splitBundle(bundle: string): { descriptor: string; code: string } {
  const start = bundle.indexOf('addJSON(JSON.parse(') + 'addJSON(JSON.parse('.length;
  const quote = bundle[start];
  let end = start + 1;
  while (!(bundle[end] === quote && bundle[end - 1] !== '\\')) end += 1;
  const descriptor = new Function(`return ${bundle.slice(start, end + 1)}`)() as string;
  return { descriptor, code: bundle.slice(0, start) + bundle.slice(end + 1) };
}

describe('the lean protobuf descriptor of the CLI bundle', () => {
  const lean = loadModule(leanJsonModule(readFileSync(jsonModulePath, 'utf8'), protobufjs));

  it('leaves out the worker core types, the Cloud API and custom options, and is under two thirds of the size', () => {
    expect(lean.lookup('coresdk')).toBeNull();
    expect(lean.lookup('temporal.api.cloud')).toBeNull();
    expect(fullRoot.lookup('coresdk')).not.toBeNull();
    const method = lean.lookupService('temporal.api.workflowservice.v1.WorkflowService').methods.StartWorkflowExecution;
    expect(method?.options).toBeUndefined();
    expect(JSON.stringify(lean.toJSON()).length).toBeLessThan((JSON.stringify(fullRoot.toJSON()).length * 2) / 3);
  });

  it('keeps the services the client calls, with the same request and response types', () => {
    for (const name of [
      'temporal.api.workflowservice.v1.WorkflowService',
      'temporal.api.operatorservice.v1.OperatorService',
      'grpc.health.v1.Health',
    ]) {
      const leanMethods = Object.values(lean.lookupService(name).methods).map((m) => [
        m.name,
        m.requestType,
        m.responseType,
      ]);
      const fullMethods = Object.values(fullRoot.lookupService(name).methods).map((m) => [
        m.name,
        m.requestType,
        m.responseType,
      ]);
      expect(leanMethods).toEqual(fullMethods);
    }
  });

  it('encodes a history event byte for byte as the full descriptor does, and decodes the full one', () => {
    const event = {
      eventId: 7,
      eventType: 1,
      eventTime: { seconds: 1_700_000_000, nanos: 5 },
      workflowExecutionStartedEventAttributes: {
        workflowType: { name: 'taskWorkflow' },
        taskQueue: { name: 'q', kind: 1 },
        input: { payloads: [{ metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"a":1}') }] },
        attempt: 2,
        searchAttributes: { indexedFields: { Project: { data: Buffer.from('"p"') } } },
      },
    };
    const typeName = 'temporal.api.history.v1.HistoryEvent';
    const fullType = fullRoot.lookupType(typeName);
    const leanType = lean.lookupType(typeName);
    const fullBytes = fullType.encode(fullType.fromObject(event)).finish();
    expect(Buffer.from(leanType.encode(leanType.fromObject(event)).finish())).toEqual(Buffer.from(fullBytes));
    expect(leanType.toObject(leanType.decode(fullBytes), { longs: Number })).toEqual(
      fullType.toObject(fullType.decode(fullBytes), { longs: Number }),
    );
  });

  it('refuses a descriptor where a kept type names a dropped one', () => {
    const source = readFileSync(jsonModulePath, 'utf8').replace(
      /("WorkflowType": \{\s*"fields": \{)/,
      '$1 "core": { "type": "coresdk.ActivityHeartbeat", "id": 99 },',
    );
    expect(source).not.toBe(readFileSync(jsonModulePath, 'utf8'));
    expect(() => leanJsonModule(source, protobufjs)).toThrow(/coresdk/);
  });

  it('keeps protobufjs options it reads (packed) and drops only custom ones', () => {
    const pruned = pruneDescriptor({
      coresdk: { nested: {} },
      temporal: {
        nested: { api: { nested: { cloud: { nested: {} }, m: { options: { packed: false, '(x.y)': 1 } } } } },
      },
    });
    expect(pruned).toEqual({ temporal: { nested: { api: { nested: { m: { options: { packed: false } } } } } } });
  });

  it('reads the service methods and protobuf names that code uses', () => {
    const used = usedByCode(
      'await this.workflowService.startWorkflowExecution({});\n' +
        'const { workflowService } = c; workflowService.getSystemInfo({}); c.operatorService.addSearchAttributes(r);\n' +
        'x = proto.temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED; workflowService.foo;',
    );
    expect([...used.methods].sort()).toEqual(['addSearchAttributes', 'getSystemInfo', 'startWorkflowExecution']);
    expect([...used.names]).toEqual(['temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED']);
  });

  it('keeps the methods code calls and what they reach, the enums of each package, and the types code names', () => {
    const descriptor = pruneDescriptor(
      JSON.parse(/\.addJSON\((\{[\s\S]*\})\);/.exec(readFileSync(jsonModulePath, 'utf8'))![1]!),
    );
    const keep = (names: string[]) => {
      const root = new protobufjs.Root();
      root.addJSON(
        keepUsed(
          descriptor,
          { methods: new Set(['getSystemInfo', 'describeWorkflowExecution']), names: new Set(names) },
          protobufjs,
        ),
      );
      root.resolveAll();
      return root;
    };
    // Exactly this path from the root (protobufjs' lookup would also search elsewhere).
    const has = (root: import('protobufjs').Root, name: string) =>
      name
        .split('.')
        .reduce<import('protobufjs').ReflectionObject | undefined>(
          (object, part) => (object as import('protobufjs').Namespace | undefined)?.nested?.[part],
          root,
        ) !== undefined;
    const nested = 'temporal.api.nexus.v1.StartOperationResponse.Sync';
    const kept = keep(['temporal.api.failure.v1.Failure.message', nested]);
    const service = kept.lookupService('temporal.api.workflowservice.v1.WorkflowService');
    expect(Object.keys(service.methods).sort()).toEqual(['DescribeWorkflowExecution', 'GetSystemInfo']);
    // The operator service stays (the client creates it), without methods; reached types stay, others go.
    expect(Object.keys(kept.lookupService('temporal.api.operatorservice.v1.OperatorService').methods)).toEqual([]);
    expect(has(kept, 'temporal.api.workflow.v1.WorkflowExecutionInfo')).toBe(true);
    expect(has(kept, 'temporal.api.workflowservice.v1.StartWorkflowExecutionRequest')).toBe(false);
    expect(has(kept, 'temporal.api.history.v1.HistoryEvent')).toBe(false);
    // Named by code (a field after the type), and every enum of a package, even one no kept message uses.
    expect(has(kept, 'temporal.api.failure.v1.Failure')).toBe(true);
    expect(has(kept, 'temporal.api.enums.v1.ScheduleOverlapPolicy')).toBe(true);
    // A message named by code stays with the message it is declared in, which nothing else reaches.
    expect(has(kept, nested)).toBe(true);
    expect(has(keep([]), 'temporal.api.nexus.v1.StartOperationResponse')).toBe(false);
  });

  it('in the built bundle, has every service method and protobuf name the bundled code uses', () => {
    const bundle = readFileSync(`${projectRoot}/dist/cli/cli.cjs`, 'utf8');
    const { descriptor, code } = splitBundle(bundle);
    const built = new protobufjs.Root();
    built.addJSON(JSON.parse(descriptor) as Record<string, import('protobufjs').AnyNestedObject>);
    built.resolveAll();
    const used = usedByCode(code);
    const methods = new Set<string>();
    for (const name of [
      'temporal.api.workflowservice.v1.WorkflowService',
      'temporal.api.operatorservice.v1.OperatorService',
      'grpc.health.v1.Health',
    ])
      for (const method of Object.keys(built.lookupService(name).methods))
        methods.add(method[0]!.toLowerCase() + method.slice(1));
    expect([...used.methods].filter((method) => !methods.has(method))).toEqual([]);
    // What `status`, `list` and `run` call is among them.
    for (const method of ['getSystemInfo', 'describeWorkflowExecution', 'getWorkflowExecutionHistory'])
      expect(methods).toContain(method);
    for (const method of ['listWorkflowExecutions', 'startWorkflowExecution', 'describeTaskQueue'])
      expect(methods).toContain(method);
    // Whatever a name points to in the full descriptor (its longest prefix there) is in the bundle's too.
    const missing = [...used.names].filter(
      (name) => namedBy(fullRoot, name)?.fullName !== namedBy(built, name)?.fullName,
    );
    expect(missing).toEqual([]);
  });

  it('generates verify, fromObject and toObject on first call, with the same results', () => {
    const typePath = require.resolve('protobufjs/src/type.js', { paths: [jsonModulePath] });
    expect(() => lazyConvertersSource('module.exports = 1;')).toThrow(/no longer generates/);
    // A fresh Node, whose protobufjs loads the patched type.js as the bundle does.
    const script = `
      import Module, { createRequire } from 'node:module';
      import { lazyConvertersSource } from ${JSON.stringify(`${projectRoot}/scripts/lean-protos.mjs`)};
      const compile = Module.prototype._compile;
      Module.prototype._compile = function (content, filename) {
        return compile.call(this, filename === ${JSON.stringify(typePath)} ? lazyConvertersSource(content) : content, filename);
      };
      const root = createRequire(import.meta.url)(${JSON.stringify(jsonModulePath)});
      const type = root.lookupType('temporal.api.failure.v1.Failure');
      const bytes = type.encode({ message: 'boom', source: 'node', cause: { message: 'inner' } }).finish();
      const decoded = type.decode(bytes);
      const isStub = () => Object.hasOwn(type, 'toObject') && String(type.toObject).includes('generate(type)');
      const afterDecode = isStub();
      const object = type.toObject(decoded);
      const any = root.lookupType('google.protobuf.Any');
      const anyObject = any.toObject(any.fromObject({ type_url: 'x', value: Buffer.from('v') }));
      console.log(JSON.stringify({ afterDecode, afterCall: isStub(), object, verify: type.verify({ message: 1 }),
        roundTrip: Buffer.from(type.encode(type.fromObject(object)).finish()).toString('hex'), anyObject }));
    `;
    const result = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    );
    const fullType = fullRoot.lookupType('temporal.api.failure.v1.Failure');
    const fullObject = fullType.toObject(
      fullType.decode(fullType.encode({ message: 'boom', source: 'node', cause: { message: 'inner' } }).finish()),
    );
    // After decoding, toObject is still the stub that generates it; after its first call, the generated function.
    expect(result.afterDecode).toBe(true);
    expect(result.afterCall).toBe(false);
    expect(result.object).toEqual(JSON.parse(JSON.stringify(fullObject)));
    expect(result.verify).toBe(fullType.verify({ message: 1 }));
    expect(result.roundTrip).toBe(Buffer.from(fullType.encode(fullObject).finish()).toString('hex'));
    const fullAny = fullRoot.lookupType('google.protobuf.Any');
    const anyObject = fullAny.toObject(fullAny.fromObject({ type_url: 'x', value: Buffer.from('v') }));
    expect(result.anyObject).toEqual(JSON.parse(JSON.stringify(anyObject)));
  });
});
