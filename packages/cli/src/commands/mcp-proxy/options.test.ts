import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { proxyConfig, ProxyOptionError } from './options.js';

describe('mcp-proxy options', () => {
  it('takes the server command after --, with defaults under ~/.argspan', () => {
    const c = proxyConfig(['npx', '-y', '@modelcontextprotocol/server-filesystem', '/srv'], {}, {}, {});
    expect(c.command).toEqual({ file: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv'] });
    expect(c).toMatchObject({ tracesDir: join(homedir(), '.argspan', 'traces'), stateDir: join(homedir(), '.argspan'), serviceName: 'argspan-mcp-proxy' });
    expect(c.http).toBeUndefined();
    expect(proxyConfig(['srv'], {}, {}, { OTEL_SERVICE_NAME: 'desk' }).serviceName).toBe('desk');
    // No shell runs a client's config: a leading ~/ is the home folder.
    expect(proxyConfig(['srv'], { tracesDir: '~/spans', stateDir: '/var/argspan' }, {}, {})).toMatchObject({ tracesDir: join(homedir(), 'spans'), stateDir: '/var/argspan' });
  });

  it('reads --http as PORT or HOST:PORT, loopback unless a host is given', () => {
    const idleTimeoutMs = 1_800_000;
    expect(proxyConfig(['srv'], { http: '8765' }, {}, {}).http).toEqual({ host: '127.0.0.1', port: 8765, idleTimeoutMs });
    expect(proxyConfig(['srv'], { http: 'localhost:0' }, {}, {}).http).toEqual({ host: 'localhost', port: 0, idleTimeoutMs });
    expect(proxyConfig(['srv'], { http: '[::1]:9000' }, {}, {}).http).toEqual({ host: '::1', port: 9000, idleTimeoutMs });
    for (const bad of ['', 'port', '70000', 'host:', ':80x']) expect(() => proxyConfig(['srv'], { http: bad }, {}, {}), bad).toThrow(/--http/);
  });

  it('reads --session-idle-timeout in seconds (default 1800), only with --http', () => {
    expect(proxyConfig(['srv'], { http: '0', sessionIdleTimeout: '90' }, {}, {}).http?.idleTimeoutMs).toBe(90_000);
    for (const bad of ['', '0', '-5', 'never', '1e9']) expect(() => proxyConfig(['srv'], { http: '0', sessionIdleTimeout: bad }, {}, {}), bad).toThrow(/--session-idle-timeout must be/);
    expect(() => proxyConfig(['srv'], { sessionIdleTimeout: '90' }, {}, {})).toThrow('--session-idle-timeout needs --http');
  });

  it('reads --ask-timeout in seconds (default 300), refusing what is not a positive number', () => {
    expect(proxyConfig(['srv'], {}, {}, {}).askTimeoutMs).toBe(300_000);
    expect(proxyConfig(['srv'], { askTimeout: '2.5' }, {}, {}).askTimeoutMs).toBe(2_500);
    for (const bad of ['', '0', '-1', 'soon', '1e9']) expect(() => proxyConfig(['srv'], { askTimeout: bad }, {}, {}), bad).toThrow(/--ask-timeout/);
  });

  it('reads --server-url with headers whose ${VAR} come from the environment, and never quotes a value', () => {
    const env = { MCP_TOKEN: 'tok-123' };
    const c = proxyConfig([], { serverUrl: 'https://mcp.example.com/mcp', serverHeader: ['Authorization: Bearer ${MCP_TOKEN}', 'X-Team: core'] }, {}, env);
    expect(c.serverUrl?.href).toBe('https://mcp.example.com/mcp');
    expect(c.serverHeaders).toEqual({ Authorization: 'Bearer tok-123', 'X-Team': 'core' });
    expect(c.command).toBeUndefined();
    const missing = () => proxyConfig([], { serverUrl: 'http://h/mcp', serverHeader: ['Authorization: Bearer ${NOPE} secret-part'] }, {}, {});
    expect(missing).toThrow('--server-header Authorization: the environment variable NOPE is not set');
    try {
      missing();
    } catch (e) {
      expect((e as Error).message).not.toContain('secret-part');
    }
  });

  it('rejects what cannot run: no server, both kinds, a bad URL or header', () => {
    const cases: [string[], Parameters<typeof proxyConfig>[1], RegExp][] = [
      [[], {}, /no MCP server/],
      [['srv'], { serverUrl: 'http://h/mcp' }, /not both/],
      [[], { serverUrl: 'not a url' }, /not a URL/],
      [[], { serverUrl: 'file:///etc/passwd' }, /http: or https:/],
      [[], { serverUrl: 'http://h/mcp', serverHeader: ['no colon'] }, /Name: value/],
      [['srv'], { serverHeader: ['A: b'] }, /needs --server-url/],
      [[], { serverUrl: 'http://user:hunter2@h/mcp' }, /must not hold a user or password/],
      [[], { serverUrl: 'http://h/mcp', serverHeader: ['Authorization: Bearer ${SPLIT}'] }, /Authorization: the value holds a line break/],
    ];
    for (const [server, opts, message] of cases) expect(() => proxyConfig(server, opts, {}, { SPLIT: 'abc\ndef' })).toThrow(message);
    try {
      proxyConfig([], { serverUrl: 'http://user:hunter2@h/mcp' }, {}, {});
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
    }
    expect(() => proxyConfig([], {}, {}, {})).toThrow(ProxyOptionError);
  });
});
