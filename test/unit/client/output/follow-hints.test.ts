import { describe, expect, it } from 'vitest';
import { formatFollowHints, webUiUrl } from '../../../../client/output/follow-hints.js';

describe('webUiUrl', () => {
  it('points at the local Web UI (gRPC port + 1000) for a local address', () => {
    expect(webUiUrl({ address: '127.0.0.1:7233', namespace: 'default' }, 'task-default-x', {})).toBe(
      'http://localhost:8233/namespaces/default/workflows/task-default-x',
    );
    expect(webUiUrl({ address: 'localhost:7300', namespace: 'dev' }, 'w', {})).toBe(
      'http://localhost:8300/namespaces/dev/workflows/w',
    );
  });

  it('gives none for a remote address unless TEMPORAL_UI_URL says where the UI is', () => {
    const target = { address: 'temporal.example.com:7233', namespace: 'prod' };
    expect(webUiUrl(target, 'w', {})).toBeUndefined();
    expect(webUiUrl(target, 'w', { TEMPORAL_UI_URL: 'https://ui.example.com/' })).toBe(
      'https://ui.example.com/namespaces/prod/workflows/w',
    );
  });
});

describe('formatFollowHints', () => {
  it('names the status command and, when local, the Web UI page', () => {
    const text = formatFollowHints({ address: '127.0.0.1:7233', namespace: 'default' }, 'task-default-x', {});
    expect(text).toContain('taskloop status task-default-x');
    expect(text).toContain('http://localhost:8233/namespaces/default/workflows/task-default-x');
    expect(formatFollowHints({ address: 'remote:7233', namespace: 'default' }, 'w', {})).not.toContain('Web UI');
  });
});
