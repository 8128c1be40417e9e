import { describe, expect, it } from 'vitest';
import type { Event } from '../../contracts/event.js';
import type { LlmRequest } from '../../contracts/request.js';
import { llmAgent } from '../../engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../engine/session/in-memory-session-store.js';
import { referencedDeferredTools } from '../../engine/tools/deferred-tools.js';
import { createScriptedModel } from '../../models/scripted/scripted-model.js';
import { createRunner } from '../../presets/create-runner.js';
import { echoTool, GITHUB_TOOLSET } from '../../../test/support/github-toolset.js';
import { SEARCH_TOOLS, toolSearch, type ToolSearchOptions } from './tool-search.js';

// Tool search for a model that holds deferred definitions back itself (Anthropic): the tools array never changes,
// the deferred definitions travel in `deferredTools`, and a search's response in the history is what loads them.

const github = GITHUB_TOOLSET;
const clock = echoTool('current_time', 'Tells the time.');

const names = (request: LlmRequest | undefined) => request?.tools.map((each) => each.name);
const deferredNames = (request: LlmRequest | undefined) =>
  request?.deferredTools?.declarations.map((each) => each.name);
const lastResponse = (request: LlmRequest) => {
  const part = request.messages.at(-1)?.content.at(-1);
  return part !== undefined && 'functionResponse' in part ? part.functionResponse.response : undefined;
};
const responses = (events: readonly Event[]) =>
  events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) => ('functionResponse' in part ? [part.functionResponse] : [])),
  );

async function setup(options: ToolSearchOptions = {}, agent: { includeContents?: 'default' | 'none' } = {}) {
  const scripted = createScriptedModel({
    rules: [
      {
        when: (request) => lastResponse(request)?.['loaded'] !== undefined,
        respond: () => ({
          functionCall: { name: 'merge_pull_request', args: { owner: 'acme', repo: 'web', pull_number: '4' } },
        }),
      },
      { when: (request) => lastResponse(request) !== undefined, respond: { text: 'Done.' } },
      {
        when: { lastUserText: 'search' },
        respond: {
          functionCall: {
            id: 'search-1',
            name: SEARCH_TOOLS,
            args: { query: 'merge a pull request, list issues', limit: 2 },
          },
        },
      },
      {
        when: { lastUserText: 'issue' },
        respond: { functionCall: { name: 'create_issue', args: { owner: 'acme', repo: 'web', title: 'x' } } },
      },
      {
        respond: {
          functionCall: { name: 'merge_pull_request', args: { owner: 'acme', repo: 'web', pull_number: '5' } },
        },
      },
    ],
  });
  const model = { ...scripted, loadsDeferredTools: true };
  const sessions = createInMemorySessionStore();
  let id = 0;
  let time = 1_700_000_000;
  const runner = createRunner({
    agents: llmAgent({
      name: 'dev',
      instruction: 'Help.',
      tools: [clock],
      toolsets: [github],
      extensions: [toolSearch(options)],
      ...(agent.includeContents === undefined ? {} : { includeContents: agent.includeContents }),
    }),
    model,
    sessions,
    now: () => (time += 0.001),
    newId: () => `id${++id}`,
  });
  await runner.createSession({ userId: 'u', sessionId: 's' });
  const run = async (message: string): Promise<Event[]> => {
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message })) events.push(event);
    return events;
  };
  return { requests: scripted.requests, run, sessions };
}

describe('toolSearch for a model that loads deferred tools itself', () => {
  it('keeps the tools array the same on every call; the deferred definitions travel apart and a search loads them by its response', async () => {
    const { requests, run } = await setup();
    const events = await run('search and merge PR 4');
    expect(requests).toHaveLength(3);
    expect(names(requests[0])).toEqual(['current_time', SEARCH_TOOLS]);
    expect(requests[0]?.deferredTools?.loader).toBe(SEARCH_TOOLS);
    expect(deferredNames(requests[0])).toEqual(['merge_pull_request', 'create_issue', 'list_issues']);
    for (const request of requests.slice(1)) {
      expect(JSON.stringify(request.tools)).toBe(JSON.stringify(requests[0]?.tools));
      expect(JSON.stringify(request.deferredTools)).toBe(JSON.stringify(requests[0]?.deferredTools));
    }
    expect(referencedDeferredTools(requests[0] as LlmRequest)).toEqual([]);
    expect(referencedDeferredTools(requests[1] as LlmRequest).map((each) => each.name)).toEqual([
      'merge_pull_request',
      'list_issues',
    ]);
    // The loaded tool ran for real.
    expect(responses(events)[1]?.response).toEqual({
      done: 'merge_pull_request',
      args: { owner: 'acme', repo: 'web', pull_number: '4' },
    });
    expect(events.at(-1)?.content?.parts).toEqual([{ text: 'Done.' }]);
  });

  it('answers a call to a deferred tool no search in the history loaded with the search-first error', async () => {
    const { run } = await setup();
    const events = await run('open an issue');
    expect(responses(events)[0]?.response).toEqual({
      error: expect.stringMatching(/^Tool 'create_issue' is not loaded yet\. Call search_tools first/) as string,
    });
  });

  it('a search in the history still loads its tools in the next invocation (the model sees them), so the call runs', async () => {
    const { requests, run } = await setup();
    await run('search and merge PR 4');
    const events = await run('merge PR 5');
    expect(names(requests[3])).toEqual(['current_time', SEARCH_TOOLS]);
    expect(referencedDeferredTools(requests[3] as LlmRequest).map((each) => each.name)).toEqual([
      'merge_pull_request',
      'list_issues',
    ]);
    expect(responses(events)[0]?.response).toEqual({
      done: 'merge_pull_request',
      args: { owner: 'acme', repo: 'web', pull_number: '5' },
    });
  });

  it("offers a loaded tool in full when its search is no longer in the history (scope 'session', history left out)", async () => {
    const { requests, run } = await setup({ scope: 'session' }, { includeContents: 'none' });
    await run('search and merge PR 4');
    const events = await run('merge PR 5');
    const next = requests[3] as LlmRequest;
    expect(referencedDeferredTools(next)).toEqual([]);
    expect(names(next)).toEqual(['current_time', SEARCH_TOOLS, 'merge_pull_request', 'list_issues']);
    // Never both a tool and a deferred definition: the API refuses two tools of one name.
    expect(deferredNames(next)).toEqual(['create_issue']);
    expect(responses(events)[0]?.response).toEqual({
      done: 'merge_pull_request',
      args: { owner: 'acme', repo: 'web', pull_number: '5' },
    });
  });

  it('builds byte-identical requests for the same session run again', async () => {
    const first = await setup();
    await first.run('search and merge PR 4');
    await first.run('merge PR 5');
    const second = await setup();
    await second.run('search and merge PR 4');
    await second.run('merge PR 5');
    expect(JSON.stringify(second.requests)).toBe(JSON.stringify(first.requests));
  });

  it('records where each deferred definition came from, and which search loaded it', async () => {
    const { run, sessions } = await setup();
    await run('search and merge PR 4');
    const second = await sessions.getModelCall({ appName: 'dev', userId: 'u', sessionId: 's', index: 2 });
    expect(second?.request.deferredTools?.declarations.map((each) => each.name)).toEqual([
      'merge_pull_request',
      'create_issue',
      'list_issues',
    ]);
    const notes = second?.provenance.deferredTools?.map((source) => source.note);
    expect(notes?.[0]).toBe(
      `deferred, loaded by ${SEARCH_TOOLS}("merge a pull request, list issues"), call search-1: the provider shows it where that response is`,
    );
    expect(notes?.[1]).toBe('deferred: the provider holds it back until a search loads it');
    expect(second?.provenance.deferredTools?.[0]?.tool).toMatchObject({
      kind: 'toolset',
      toolset: 'github',
      name: 'merge_pull_request',
    });
  });
});
