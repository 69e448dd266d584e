import { describe, expect, it } from 'vitest';
import net from 'node:net';
import { once } from 'node:events';
import { formatFollowHints, webUiUrl } from '../../../../client/output/follow-hints.js';
import { findFreePort } from '../../../../platform/server/ports.js';

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
  it('names the status command and, when local and something serves the UI port, the Web UI page', async () => {
    const ui = net.createServer().listen(0, '127.0.0.1');
    await once(ui, 'listening');
    const uiPort = (ui.address() as net.AddressInfo).port;
    try {
      const target = { address: `127.0.0.1:${uiPort - 1000}`, namespace: 'default' };
      const text = await formatFollowHints(target, 'task-default-x', {});
      expect(text).toContain('taskloop status task-default-x');
      expect(text).toContain(`http://localhost:${uiPort}/namespaces/default/workflows/task-default-x`);
    } finally {
      ui.close();
    }
    expect(await formatFollowHints({ address: 'remote:7233', namespace: 'default' }, 'w', {})).not.toContain('Web UI');
  });

  it('names no Web UI for a local server with none on its UI port (a --headless dev server)', async () => {
    const port = await findFreePort();
    const text = await formatFollowHints({ address: `127.0.0.1:${port - 1000}`, namespace: 'default' }, 'w', {});
    expect(text).toBe('follow it:  taskloop status w');
  });
});
