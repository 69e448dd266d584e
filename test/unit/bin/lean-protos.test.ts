// The CLI bundle's protobuf descriptor is cut down (scripts/lean-protos.mjs): what it keeps must encode and decode
// exactly as the full package does, and a type it would leave dangling must stop the build.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { leanJsonModule, pruneDescriptor } from '../../../scripts/lean-protos.mjs';

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
});
