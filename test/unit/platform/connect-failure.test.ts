import { describe, expect, it } from 'vitest';
import { describeConnectFailure } from '../../../platform/connect-failure.js';
import { probeAddress, splitAddress } from '../../../platform/probe-address.js';
import { findFreePort } from '../../../platform/server/ports.js';

// The worker's connection (the Rust core) reports failures as tonic debug text; these are its real strings.
const tonicRefused =
  'tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", 127.0.0.1:1, Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))';
const tonicDns =
  'tonic::transport::Error(Transport, ConnectError(ConnectError("dns error", Custom { kind: Uncategorized, error: "failed to lookup address information: Name or service not known" })))';

describe('a connection failure in a few words with its fix', () => {
  it('reads the worker transport text: refused and unknown host', () => {
    expect(describeConnectFailure(new Error(tonicRefused)).reason).toBe('connection refused');
    expect(describeConnectFailure(new Error(tonicDns))).toEqual({
      reason: 'host not found',
      fix: 'check the host name in TEMPORAL_ADDRESS (or --address)',
    });
  });

  it('reads Node socket errors, TLS and credential refusals, and timeouts', () => {
    expect(describeConnectFailure(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })).reason).toBe(
      'connection refused',
    );
    expect(describeConnectFailure(new Error('SSL routines: WRONG_VERSION_NUMBER')).fix).toMatch(/TEMPORAL_TLS/);
    expect(describeConnectFailure(new Error('16 UNAUTHENTICATED: bad key')).fix).toMatch(/TEMPORAL_API_KEY/);
    expect(describeConnectFailure(new Error('Failed to connect before the deadline')).reason).toBe('no answer in time');
  });

  it('names a rate limit as one, with the setting to raise, even when its retries ran out at a deadline', () => {
    const failure = describeConnectFailure(
      new Error('8 RESOURCE_EXHAUSTED: namespace rate limit exceeded (deadline exceeded after retries)'),
    );
    expect(failure.reason).toBe('the server is refusing requests over its rate limit');
    expect(failure.fix).toMatch(/frontend\.namespaceRPS/);
  });

  it('keeps only the first line of an unknown error', () => {
    expect(describeConnectFailure(new Error('odd\nstack line')).reason).toBe('odd');
  });
});

describe('the TCP probe before gRPC', () => {
  it('splits host:port and [v6]:port, and nothing else', () => {
    expect(splitAddress('127.0.0.1:7233')).toEqual({ host: '127.0.0.1', port: 7233 });
    expect(splitAddress('[::1]:7233')).toEqual({ host: '::1', port: 7233 });
    expect(splitAddress('localhost')).toBeUndefined();
  });

  it('finds a closed port refused', async () => {
    const probe = await probeAddress(`127.0.0.1:${await findFreePort()}`);
    expect(probe.reachable).toBe(false);
  });
});
