import { describe, expect, it } from 'vitest';
import type { Event } from '../../contracts/event.js';
import type { LlmRequest } from '../../contracts/request.js';
import { llmAgent } from '../../engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../engine/session/in-memory-session-store.js';
import { createScriptedModel } from '../../models/scripted/scripted-model.js';
import { createRunner } from '../../presets/create-runner.js';
import { echoTool, GITHUB_TOOLSET } from '../../../test/support/github-toolset.js';
import { SEARCH_TOOLS, toolSearch, type ToolSearchOptions } from './tool-search.js';

const github = GITHUB_TOOLSET;
const rotate = { ...echoTool('rotate_keys', 'Rotates the signing keys.'), deferred: true };

const names = (request: LlmRequest | undefined) => request?.tools.map((each) => each.name);
const lastResponse = (request: LlmRequest) => {
  const part = request.messages.at(-1)?.content.at(-1);
  return part !== undefined && 'functionResponse' in part ? part.functionResponse.response : undefined;
};

async function setup(options?: ToolSearchOptions, sessions = createInMemorySessionStore(), idPrefix = 'id') {
  // Each turn: search when the user says "search", then call the tool the search loaded (or the one named), then answer.
  const model = createScriptedModel({
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
      { when: { lastUserText: 'rotate' }, respond: { functionCall: { name: 'rotate_keys', args: {} } } },
      {
        respond: {
          functionCall: { name: 'merge_pull_request', args: { owner: 'acme', repo: 'web', pull_number: '5' } },
        },
      },
    ],
  });
  let id = 0;
  let time = 1_700_000_000;
  const runner = createRunner({
    agents: llmAgent({
      name: 'dev',
      instruction: 'Help.',
      tools: [rotate],
      toolsets: [github],
      extensions: [toolSearch(options)],
    }),
    model,
    sessions,
    now: () => (time += 0.001),
    newId: () => `${idPrefix}${++id}`,
  });
  if ((await sessions.getSession({ appName: 'dev', userId: 'u', sessionId: 's' })) === undefined)
    await runner.createSession({ userId: 'u', sessionId: 's' });
  const run = async (message: string): Promise<Event[]> => {
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message })) events.push(event);
    return events;
  };
  return { model, run, sessions };
}

const responses = (events: readonly Event[]) =>
  events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) => ('functionResponse' in part ? [part.functionResponse] : [])),
  );

describe('toolSearch through the runner', () => {
  it('a search loads a tool for the following calls of the invocation, and the call runs it', async () => {
    const { model, run } = await setup();
    const events = await run('search and merge PR 4');
    expect(names(model.requests[0])).toEqual([SEARCH_TOOLS]);
    expect(responses(events)[0]).toEqual({
      id: 'search-1',
      name: SEARCH_TOOLS,
      response: {
        query: 'merge a pull request, list issues',
        loaded: ['merge_pull_request', 'list_issues'],
        result: expect.stringMatching(
          /^Loaded 2 tools; call them from your next step on:\n- merge_pull_request: /,
        ) as string,
      },
    });
    expect(names(model.requests[1])).toEqual([SEARCH_TOOLS, 'merge_pull_request', 'list_issues']);
    expect(responses(events)[1]?.response).toEqual({
      done: 'merge_pull_request',
      args: { owner: 'acme', repo: 'web', pull_number: '4' },
    });
    expect(names(model.requests[2])).toEqual(names(model.requests[1]));
    expect(events.at(-1)?.content?.parts).toEqual([{ text: 'Done.' }]);
  });

  it("scope 'invocation': the next invocation does not have it, and a call to it is told to search first", async () => {
    const { model, run } = await setup();
    await run('search and merge PR 4');
    const events = await run('merge PR 5');
    expect(names(model.requests[3])).toEqual([SEARCH_TOOLS]);
    expect(responses(events)[0]?.response).toEqual({
      error: `Tool 'merge_pull_request' is not loaded yet. Call search_tools first with words for what you need (for example "merge pull request"); it loads the tools it finds for your next step.`,
    });
  });

  it("scope 'session': the next invocation keeps it, and the call runs", async () => {
    const { model, run } = await setup({ scope: 'session' });
    await run('search and merge PR 4');
    const events = await run('merge PR 5');
    expect(names(model.requests[3])).toEqual([SEARCH_TOOLS, 'merge_pull_request', 'list_issues']);
    expect(responses(events)[0]?.response).toEqual({
      done: 'merge_pull_request',
      args: { owner: 'acme', repo: 'web', pull_number: '5' },
    });
  });

  it("scope 'session': a new runner over the same store (a reload) finds the same tools loaded", async () => {
    const first = await setup({ scope: 'session' });
    await first.run('search and merge PR 4');
    const reloaded = await setup({ scope: 'session' }, first.sessions, 'again');
    await reloaded.run('merge PR 5');
    expect(names(reloaded.model.requests[0])).toEqual([SEARCH_TOOLS, 'merge_pull_request', 'list_issues']);
    expect(JSON.stringify(reloaded.model.requests[0]?.tools)).toBe(JSON.stringify(first.model.requests[2]?.tools));
  });

  it("an agent's own deferred tool is not run before a search loads it", async () => {
    const { run } = await setup();
    const events = await run('rotate the keys');
    expect(responses(events)[0]?.response).toEqual({
      error: expect.stringMatching(/^Tool 'rotate_keys' is not loaded yet/) as string,
    });
  });

  it('the stored requests of the same session are byte for byte the same when run again', async () => {
    const first = await setup({ scope: 'session' });
    await first.run('search and merge PR 4');
    await first.run('merge PR 5');
    const second = await setup({ scope: 'session' });
    await second.run('search and merge PR 4');
    await second.run('merge PR 5');
    expect(JSON.stringify(second.model.requests)).toBe(JSON.stringify(first.model.requests));
    const calls = await first.sessions.listModelCalls({ appName: 'dev', userId: 'u', sessionId: 's' });
    expect(calls.length).toBe(5);
  });
});
