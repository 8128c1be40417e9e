import { describe, expect, it } from 'vitest';
import type { Provenance } from '../contracts/provenance.js';
import type { LlmRequest } from '../contracts/request.js';
import type { Source } from '../contracts/source.js';
import { countRequestTokens } from '../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../engine/tokens/token-counter.js';
import { formatRequest } from './format-request.js';
import { createStyle } from './style.js';

const schema = { type: 'object', properties: { number: { type: 'integer' } } };
const request: LlmRequest = {
  system: 'Help.',
  tools: [{ name: 'search_tools', description: 'Searches the tools.', parameters: schema }],
  deferredTools: {
    loader: 'search_tools',
    declarations: [
      { name: 'merge_pull_request', description: 'Merges a pull request.', parameters: schema },
      { name: 'create_issue', description: 'Creates an issue.', parameters: schema },
    ],
  },
  messages: [
    { role: 'user', content: [{ text: 'merge 4' }] },
    { role: 'model', content: [{ functionCall: { id: 'c1', name: 'search_tools', args: { query: 'merge' } } }] },
    {
      role: 'user',
      content: [
        {
          functionResponse: {
            id: 'c1',
            name: 'search_tools',
            response: { query: 'merge', loaded: ['merge_pull_request'] },
          },
        },
      ],
    },
  ],
  config: {},
};
const source = (note?: string): Source => ({
  kind: 'tool',
  processor: 'tools',
  agent: 'dev',
  ...(note === undefined ? {} : { note }),
  tool: { kind: 'mcp', toolset: 'github', server: 'github', name: 'x' },
});
const provenance: Provenance = {
  system: [{ start: 0, end: 5, source: { kind: 'instruction', processor: 'instructions', agent: 'dev' } }],
  tools: [source()],
  deferredTools: [source('deferred, loaded by search_tools("merge")'), source('deferred: held back')],
  messages: request.messages.map((message) =>
    message.content.map(() => ({ kind: 'history', processor: 'contents', agent: 'dev' }) as Source),
  ),
};

describe('inspect’s view of a request with deferred tools', () => {
  it('lists each deferred definition, shows the loaded ones in full, and counts only those', async () => {
    const tokens = countRequestTokens(request, await loadTokenCounter());
    const loaded = tokens.deferred.each[0] as number;
    expect(loaded).toBeGreaterThan(0);
    expect(tokens.deferred).toEqual({ total: loaded, each: [loaded, 0] });
    expect(tokens.total).toBe(
      tokens.system.total + tokens.tools.total + loaded + tokens.messages.total + tokens.framing,
    );

    const text = formatRequest(request, provenance, 'call 2', createStyle(false), tokens);
    expect(text).toContain(`, loaded deferred tools ${loaded}, messages`);
    expect(text).toContain(`DEFERRED TOOLS · 2, 1 loaded by search_tools · ${loaded} tokens`);
    const lines = text.split('\n');
    const merge = lines.findIndex((line) => line.startsWith('┌ deferred[0] merge_pull_request'));
    expect(lines[merge]).toMatch(
      /MCP server github, tool x \(deferred, loaded by search_tools\("merge"\)\) · loaded, \d+ tokens$/,
    );
    expect(lines[merge + 1]).toBe('│ Merges a pull request.');
    expect(lines[merge + 2]).toBe(`│ parameters: ${JSON.stringify(schema)}`);
    expect(lines[merge + 3]).toMatch(/^┌ deferred\[1\] create_issue · .*\(deferred: held back\) · held back$/);
    expect(lines[merge + 4]).toBe('');
  });

  it('shows no deferred section for a request without deferred tools', async () => {
    const { deferredTools: _none, ...plain } = request;
    const { deferredTools: _sources, ...plainProvenance } = provenance;
    const text = formatRequest(
      plain,
      plainProvenance,
      'call 1',
      createStyle(false),
      countRequestTokens(plain, await loadTokenCounter()),
    );
    expect(text).not.toContain('DEFERRED');
    expect(text).not.toContain('loaded deferred tools');
  });
});

describe('inspect’s view of a request with built-in tools', () => {
  it('lists each with its provider, where it came from and its settings, apart from the function tools', () => {
    const builtInSource = (index: number): Source => ({
      kind: 'tool',
      processor: 'agent',
      agent: 'dev',
      field: `builtInTools[${index}]`,
      tool: { kind: 'built-in', provider: 'google' },
    });
    const withBuiltIns: LlmRequest = {
      ...request,
      builtInTools: [
        { provider: 'google', type: 'googleSearch' },
        { provider: 'google', type: 'urlContext', settings: { max: 2 } },
      ],
    };
    const text = formatRequest(
      withBuiltIns,
      { ...provenance, builtInTools: [builtInSource(0), builtInSource(1)] },
      'call 1',
      createStyle(false),
    );
    const lines = text.split('\n');
    const at = lines.indexOf('BUILT-IN TOOLS · 2, run by the provider');
    expect(at).toBeGreaterThan(lines.findIndex((line) => line.startsWith('DEFERRED TOOLS')));
    expect(lines[at + 1]).toMatch(/^┌ builtInTools\[0\] google googleSearch · .*built-in tool of google/);
    expect(lines[at + 2]).toMatch(/^┌ builtInTools\[1\] google urlContext · /);
    expect(lines[at + 3]).toBe('│ settings: {"max":2}');
  });
});

describe('a source from another session', () => {
  it('names the session its events are from', async () => {
    const { describeSource } = await import('./format-request.js');
    const source: Source = {
      kind: 'other-session',
      processor: 'memory',
      agent: 'dev',
      eventIds: ['e7'],
      session: { appName: 'app', userId: 'ann', sessionId: 's1' },
    };
    expect(describeSource(source)).toBe('other-session · dev · session s1 of user ann in app app · event e7');
  });
});
