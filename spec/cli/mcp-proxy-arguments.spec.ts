import { describe, expect, it } from 'vitest';
import { parseProxyArguments } from '../../src/cli/mcp-proxy-arguments.js';

describe('spoolforge mcp arguments', () => {
  it('reads sizes, durations, repeated headers and the command after --', () => {
    const settings = parseProxyArguments(
      [
        '--threshold=64K',
        '--ttl',
        '12h',
        '--timeout',
        '0',
        '--max-result',
        '2G',
        '--max-reference',
        '4M',
        '--',
        'npx',
        '-y',
        'server',
        '--flag',
      ],
      {},
    );
    expect(settings).toMatchObject({
      upstream: { kind: 'command', command: 'npx', args: ['-y', 'server', '--flag'] },
      label: 'npx -y server --flag',
      threshold: 64 * 1024,
      ttl: 12 * 3600 * 1000,
      timeout: 0,
      maxResult: 2 * 1024 ** 3,
      maxReference: 4 * 1024 ** 2,
      listen: undefined,
    });
    const remote = parseProxyArguments(
      [
        '--upstream',
        'https://mcp.example.com/mcp',
        '--header',
        'Authorization: Bearer a:b',
        '--header',
        'X-Team: 7',
        '--listen',
        '[::1]:8808',
      ],
      { SPOOLFORGE_MCP_TOKEN: 'env-token' },
    );
    expect(remote.upstream).toEqual({
      kind: 'url',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer a:b', 'X-Team': '7' },
    });
    expect(remote.listen).toEqual({
      host: '::1',
      port: 8808,
      token: 'env-token',
      allowedOrigins: [],
      allowedHosts: [],
      maxSessions: 16,
    });
    const capped = ['--listen', '127.0.0.1:0', '--max-sessions', '4', '--', 's'];
    expect(parseProxyArguments(capped, {}).listen?.maxSessions).toBe(4);
    expect(parseProxyArguments(['--', 'server'], {})).toMatchObject({
      threshold: 16 * 1024,
      ttl: 7 * 86_400_000,
      timeout: 300_000,
      maxResult: 1024 ** 3,
      maxReference: 1024 ** 2,
    });
  });

  it('refuses what it cannot read with the option named', () => {
    const refused = (argv: string[]) => () => parseProxyArguments(argv, {});
    expect(refused(['--threshold', 'lots', '--', 's'])).toThrow(/--threshold takes a size/);
    expect(refused(['--ttl', '1w', '--', 's'])).toThrow(/--ttl takes a duration/);
    expect(refused(['--max-reference', 'all', '--', 's'])).toThrow(/--max-reference takes a size/);
    expect(refused(['--timeout', '-1', '--', 's'])).toThrow(/--timeout takes seconds/);
    expect(refused(['--upstream', 'file:///etc/passwd'])).toThrow(
      /--upstream takes an http\(s\) URL/,
    );
    expect(refused(['--upstream', 'http://h/mcp', '--', 's'])).toThrow(/not both/);
    expect(refused(['--listen', '8808', '--', 's'])).toThrow(/--listen takes HOST:PORT/);
    expect(refused(['--header', 'nocolon', '--upstream', 'http://h/'])).toThrow(
      /--header takes 'Name: value'/,
    );
    expect(refused(['--store'])).toThrow(/'--store' requires a value/);
    expect(refused(['--ttl', '0', '--', 's'])).toThrow(/--ttl must be more than 0/);
    expect(refused(['--timeout', '2200000', '--', 's'])).toThrow(/up to 2147483/);
    expect(refused(['--threshold', '16b', '--', 's'])).toThrow(/--threshold takes a size/);
    expect(refused(['--token', 't', '--', 's'])).toThrow(/--token applies to --listen only/);
    expect(refused(['--max-sessions', '4', '--', 's'])).toThrow(/applies to --listen only/);
    const zero = ['--listen', '127.0.0.1:0', '--max-sessions', '0', '--', 's'];
    expect(refused(zero)).toThrow(/--max-sessions takes a whole number from 1/);
    expect(refused(['npx', 'server'])).toThrow(/goes after --: spoolforge mcp -- npx server/);
    expect(refused(['--upstream', 'https://u:p@h/mcp'])).toThrow(/no user:password/);
    expect(refused(['--resource-links', 'maybe', '--', 's'])).toThrow(/auto, always or never/);
    expect(parseProxyArguments(['--upstream', 'https://h/mcp?api_key=SECRET'], {}).label).toBe(
      'https://h/mcp',
    );
    expect(parseProxyArguments(['--threshold', '2MiB', '--', 's'], {}).threshold).toBe(
      2 * 1024 ** 2,
    );
  });
});
