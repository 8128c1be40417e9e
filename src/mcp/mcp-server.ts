import { ValidationError, type ValidationIssue } from '../contracts/errors/validation-error.js';
import type { McpServer } from '../contracts/mcp.js';

export type { McpHttpServer, McpServer, McpStdioServer } from '../contracts/mcp.js';

/** The problems of a server description, by path (`server.command`, `server.url`, …). */
export function checkMcpServer(server: unknown, path: string): ValidationIssue[] {
  if (typeof server !== 'object' || server === null || Array.isArray(server))
    return [{ path, message: 'expected { command, args?, env?, cwd? } or { url, headers? }' }];
  const record = server as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const stringsOf = (key: string, value: unknown, kind: 'list' | 'map') => {
    if (value === undefined) return;
    const ok =
      kind === 'list'
        ? Array.isArray(value) && value.every((item) => typeof item === 'string')
        : typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.values(value).every((item) => typeof item === 'string');
    if (!ok)
      issues.push({
        path: `${path}.${key}`,
        message: kind === 'list' ? 'expected a list of strings' : 'expected a mapping of names to strings',
      });
  };
  const hasCommand = Object.hasOwn(record, 'command');
  const hasUrl = Object.hasOwn(record, 'url');
  if (hasCommand === hasUrl)
    return [
      {
        path,
        message: hasCommand
          ? 'give either command (stdio) or url (Streamable HTTP), not both'
          : 'needs command (a stdio server) or url (a Streamable HTTP server)',
      },
    ];
  if (hasCommand) {
    if (typeof record['command'] !== 'string' || record['command'].trim() === '')
      issues.push({ path: `${path}.command`, message: 'expected the program to run, as a non-empty string' });
    stringsOf('args', record['args'], 'list');
    stringsOf('env', record['env'], 'map');
    if (record['cwd'] !== undefined && typeof record['cwd'] !== 'string')
      issues.push({ path: `${path}.cwd`, message: 'expected a folder path' });
    for (const key of Object.keys(record))
      if (!['command', 'args', 'env', 'cwd'].includes(key))
        issues.push({ path: `${path}.${key}`, message: 'unknown field of a stdio server (command, args, env, cwd)' });
  } else {
    const url = record['url'];
    let parsed: URL | undefined;
    try {
      parsed = typeof url === 'string' ? new URL(url) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !['http:', 'https:'].includes(parsed.protocol))
      issues.push({ path: `${path}.url`, message: `expected an http:// or https:// URL, got ${JSON.stringify(url)}` });
    stringsOf('headers', record['headers'], 'map');
    for (const key of Object.keys(record))
      if (!['url', 'headers'].includes(key))
        issues.push({ path: `${path}.${key}`, message: 'unknown field of a Streamable HTTP server (url, headers)' });
  }
  return issues;
}

export function requireMcpServer(server: unknown, subject: string): McpServer {
  const issues = checkMcpServer(server, 'server');
  if (issues.length > 0)
    throw new ValidationError({
      subject,
      issues,
      hint: 'Describe a stdio server as { command, args } and a Streamable HTTP one as { url, headers }.',
    });
  return server as McpServer;
}
