import { join } from 'node:path';
import { expect } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { binaryArtifact } from '../../src/engine/session/artifacts.js';
import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { checkTemplate } from '../../src/features/templating/check-template.js';
import { injectState } from '../../src/features/templating/inject-state.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { defineRows } from '../reliability/rows.js';
import { caught, expectTyped, listModel, scratch, turn } from '../reliability/support.js';
import { cli } from '../support/cli.js';

// Part 1, templates (instructions with {placeholders}) and state keys and values. A template that cannot be filled
// ends the invocation with an error event before any model call; a value that cannot be stored is refused before
// anything of its write reaches the store.
const tmp = scratch();

/** A runner whose only agent has this instruction; the model is never meant to be reached when assembly fails. */
async function withInstruction(
  instruction: string,
  options: { state?: Record<string, unknown>; artifacts?: ReturnType<typeof createInMemoryArtifactStore> } = {},
) {
  const model = listModel([]);
  const runner = createRunner({
    agents: llmAgent({ name: 'writer', instruction }),
    model,
    ...(options.artifacts === undefined ? {} : { artifacts: options.artifacts }),
  });
  await runner.createSession({ userId: 'u1', sessionId: 's1', state: options.state ?? {} });
  const events = await turn(runner, { message: 'hi' });
  const stored = await runner.sessions.getSession({ appName: 'writer', userId: 'u1', sessionId: 's1' });
  return { events, model, stored };
}

/** The invocation ended with one error event of this code, after the user's message, and no model was called. */
function expectAssemblyFailure(
  result: Awaited<ReturnType<typeof withInstruction>>,
  code: string,
  message: RegExp,
): void {
  expect(result.events.map((event) => event.errorCode ?? event.author)).toEqual(['user', code]);
  expect(result.events[1]?.errorMessage).toMatch(message);
  expect(result.model.requests).toHaveLength(0);
  expect(result.stored?.events.map((event) => event.id)).toEqual(result.events.map((event) => event.id));
}

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'template.missing-key',
      entry: 'template',
      tried: 'an instruction `{plan}` when state has no `plan`',
      expected: "error event `missing_state_key` with ADK's message and the hint `{plan?}`; the model is not called",
      run: async () =>
        expectAssemblyFailure(
          await withInstruction('Plan: {plan}'),
          'missing_state_key',
          /Context variable not found: `plan`\..*\{plan\?\}/,
        ),
    },
    {
      id: 'template.missing-artifact',
      entry: 'template',
      tried: '`{artifact.notes.txt}` with no such artifact, and with no artifact store at all',
      expected: 'error events `missing_artifact` and `artifact_store_missing`, each with its fix',
      run: async () => {
        expectAssemblyFailure(
          await withInstruction('{artifact.notes.txt}', { artifacts: createInMemoryArtifactStore() }),
          'missing_artifact',
          /Artifact notes\.txt not found\./,
        );
        expectAssemblyFailure(await withInstruction('{artifact.notes.txt}'), 'artifact_store_missing', /artifact/i);
      },
    },
    {
      id: 'template.binary-artifact',
      entry: 'template',
      tried: '`{artifact.logo.png}` naming a binary artifact',
      expected: 'error event `artifact_not_text`: pass it as a message part instead',
      run: async () => {
        const artifacts = createInMemoryArtifactStore();
        await artifacts.save({
          appName: 'writer',
          userId: 'u1',
          sessionId: 's1',
          filename: 'logo.png',
          artifact: binaryArtifact(new Uint8Array([137, 80]), 'image/png'),
        });
        expectAssemblyFailure(
          await withInstruction('{artifact.logo.png}', { artifacts }),
          'artifact_not_text',
          /Artifact logo\.png is binary \(image\/png\).*message part/,
        );
      },
    },
    {
      id: 'template.not-names',
      entry: 'template',
      tried: '`{not a name}`, `{"json": 1}`, `{a:b}` and an unclosed `{name`',
      expected: 'left exactly as written (ADK), and listed by `checkTemplate` as literals with the reason',
      run: async () => {
        const template = 'A {not a name} {"json": 1} {a:b} {name';
        expect(await injectState(template, { state: { name: 'x' } })).toBe(template);
        expect(
          checkTemplate(template, { state: {} }).literals.map((literal) => `${literal.text} ${literal.reason}`),
        ).toEqual(['{not a name} not-a-name', '{"json": 1} not-a-name', '{a:b} not-a-name', '{ unmatched-brace']);
      },
    },
    {
      id: 'template.doubled-braces',
      entry: 'template',
      tried: '`{{name}}`, meant as an escape',
      expected:
        'replaced like `{name}` (as ADK does) and flagged by `checkTemplate` with the way to write literal braces',
      run: async () => {
        expect(await injectState('{{name}}', { state: { name: 'Ada' } })).toBe('Ada');
        expect(checkTemplate('{{name}}', { state: { name: 'Ada' } }).notes[0]?.message).toMatch(
          /not an escape.*enable escapes and write \\\{\.\.\.\\\}/,
        );
      },
    },
    {
      id: 'template.provider-throws',
      entry: 'template',
      tried: 'an instruction provider function that throws',
      expected:
        "error event `processor_failed` naming the processor and the agent: `Processor 'instructions' failed for agent 'writer': boom`",
      run: async () => {
        const runner = createRunner({
          agents: llmAgent({
            name: 'writer',
            instruction: () => {
              throw new Error('boom');
            },
          }),
          model: listModel([]),
        });
        await runner.createSession({ userId: 'u1', sessionId: 's1' });
        const events = await turn(runner, { message: 'hi' });
        expect(events.at(-1)).toMatchObject({
          errorCode: 'processor_failed',
          errorMessage: "Processor 'instructions' failed for agent 'writer': boom",
        });
      },
    },
    {
      id: 'template.huge',
      entry: 'template',
      tried: 'a 400 KB instruction with 20,000 placeholders and unmatched braces',
      expected: 'rendered in well under a second (linear scan), values inserted once',
      run: async () => {
        const template = Array.from({ length: 20_000 }, (_, i) => `line ${i} {k${i % 50}} { `).join('\n');
        const state = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, `v${i}`]));
        const started = performance.now();
        const text = await injectState(template, { state });
        // A linear scan takes milliseconds here; a quadratic one, minutes. The bound leaves room for a loaded machine
        // (it was missed at 1 s once, with a CI run and a 1M-entry benchmark sharing two cores).
        expect(performance.now() - started).toBeLessThan(10_000);
        expect(text.split('v7 ').length - 1).toBe(400);
      },
    },
    {
      id: 'template.cli-check',
      entry: 'template',
      tried: '`agentctx check` on a template whose placeholder would fail at run time',
      expected:
        'exit 1 naming the placeholder (`✗ 1 required placeholder would fail`); exit 2 only for unreadable input',
      run: async () => {
        const dir = await tmp.files({
          'check.yaml': 'template: "Review {draft} for {user:name?}."\nstate:\n  other: 1\n',
        });
        const result = await cli(['check', join(dir, 'check.yaml')]);
        expect(result.code).toBe(1);
        expect(result.stdout).toMatch(/✗ 1 required placeholder would fail at run time: \{draft\} in template/);
      },
    },
    {
      id: 'state.not-json',
      entry: 'state',
      tried: 'initial state holding a function, a Map, a bigint, NaN',
      expected:
        'ValidationError naming the key and what was found (`cannot be stored as JSON (found a bigint)`); no session is created',
      run: async () => {
        const store = createInMemorySessionStore();
        for (const [value, found] of [
          [() => 1, 'a function'],
          [new Map(), 'an instance of Map'],
          [10n, 'a bigint'],
          [Number.NaN, 'NaN'],
        ] as const) {
          const error = await caught(() =>
            store.createSession({ appName: 'a', userId: 'u', sessionId: 's', state: { nested: { value } } }),
          );
          expectTyped(error, {
            code: 'invalid_input',
            message: new RegExp(`state\\.nested\\.value: cannot be stored as JSON \\(found ${found}\\)`),
          });
        }
        expect(await store.listSessions({ appName: 'a' })).toEqual([]);
      },
    },
    {
      id: 'state.circular',
      entry: 'state',
      tried: 'a value that contains itself (in initial state, a run’s `stateDelta`, a tool’s result)',
      expected:
        '`found a circular reference` with its path, as a typed error or an `{ error }` tool response; before the fix, a stack overflow',
      run: async () => {
        const loop: Record<string, unknown> = { name: 'loop' };
        loop['self'] = loop;
        expectTyped(
          await caught(() =>
            createInMemorySessionStore().createSession({ appName: 'a', userId: 'u', state: { loop } }),
          ),
          { message: /state\.loop\.self: cannot be stored as JSON \(found a circular reference\)/ },
        );
        const tool = functionTool({
          name: 'loop',
          description: 'Returns a cycle.',
          jsonSchema: { type: 'object' },
          execute: () => loop,
        });
        const model = createScriptedModel({
          rules: [
            { when: { afterToolResponse: 'loop' }, respond: { text: 'done' } },
            { respond: { functionCall: { name: 'loop', args: {} } } },
          ],
        });
        const runner = createRunner({ agents: llmAgent({ name: 'writer', tools: [tool] }), model });
        await runner.createSession({ userId: 'u1', sessionId: 's1' });
        expectTyped(await caught(() => turn(runner, { message: 'hi', stateDelta: { loop } })), {
          message: /stateDelta\.loop\.self: cannot be stored as JSON \(found a circular reference\)/,
        });
        const events = await turn(runner, { message: 'hi' });
        expect(events[2]?.content?.parts[0]).toMatchObject({
          functionResponse: {
            response: {
              error:
                "Tool 'loop' returned a value that cannot be stored as JSON (response.self: found a circular reference); it must return plain JSON data.",
            },
          },
        });
        expect(events.at(-1)?.content?.parts).toEqual([{ text: 'done' }]);
      },
    },
    {
      id: 'state.run-delta-not-json',
      entry: 'state',
      tried: 'a run whose `stateDelta` holds a bigint, on SQLite',
      expected:
        'the run throws ValidationError (`stateDelta.x … found a bigint`) before writing: revision and events unchanged',
      run: async () => {
        const sessions = createSqliteSessionStore({ path: join(await tmp.dir(), 'state.db') });
        try {
          const runner = createRunner({ agents: llmAgent({ name: 'writer' }), model: listModel([]), sessions });
          await runner.createSession({ userId: 'u1', sessionId: 's1' });
          expectTyped(await caught(() => turn(runner, { message: 'hi', stateDelta: { x: 10n } })), {
            message: /event\.actions\.stateDelta\.x: cannot be stored as JSON \(found a bigint\)/,
            hint: /plain JSON data/,
          });
          expect(await sessions.getSession({ appName: 'writer', userId: 'u1', sessionId: 's1' })).toMatchObject({
            revision: 0,
            events: [],
            state: {},
          });
        } finally {
          await sessions.close();
        }
      },
    },
    {
      id: 'state.tool-writes-not-json',
      entry: 'state',
      tried: 'a tool that writes a Map into state',
      expected:
        'the invocation stops with ValidationError naming `stateDelta.k`; the response event is not written, the session loads without it and the next turn runs',
      run: async () => {
        const bad = functionTool({
          name: 'bad',
          description: 'Writes a Map.',
          jsonSchema: { type: 'object' },
          execute: (_args, context) => (context.state.set('k', new Map()), { ok: true }),
        });
        const model = createScriptedModel({
          rules: [
            { when: { lastUserText: 'again' }, respond: { text: 'fine' } },
            { when: { afterToolResponse: 'bad' }, respond: { text: 'done' } },
            { respond: { functionCall: { name: 'bad', args: {} } } },
          ],
        });
        const runner = createRunner({ agents: llmAgent({ name: 'writer', tools: [bad] }), model });
        await runner.createSession({ userId: 'u1', sessionId: 's1' });
        expectTyped(await caught(() => turn(runner, { message: 'hi' })), {
          message: /event\.actions\.stateDelta\.k: cannot be stored as JSON \(found an instance of Map\)/,
        });
        const stored = await runner.sessions.getSession({ appName: 'writer', userId: 'u1', sessionId: 's1' });
        expect({ revision: stored?.revision, state: stored?.state }).toEqual({ revision: 2, state: {} });
        expect((await turn(runner, { message: 'again' })).at(-1)?.content?.parts).toEqual([{ text: 'fine' }]);
      },
    },
    {
      id: 'state.proto-key',
      entry: 'state',
      tried:
        "a `__proto__` key (as `JSON.parse` makes it) in a new session's state, in a run's `stateDelta`, and over HTTP",
      expected:
        'ValidationError `["__proto__"]: is not a usable state key`; HTTP 400; nothing stored, no prototype changed; before the fix, the key vanished from state while its event kept it',
      run: async () => {
        const proto = JSON.parse('{"__proto__": {"polluted": "yes"}}') as Record<string, unknown>;
        const store = createInMemorySessionStore();
        expectTyped(
          await caught(() => store.createSession({ appName: 'a', userId: 'u', sessionId: 's', state: proto })),
          { message: /state\["__proto__"\]: is not a usable state key/ },
        );
        const runner = createRunner({ agents: llmAgent({ name: 'writer' }), model: listModel([]), sessions: store });
        await runner.createSession({ userId: 'u1', sessionId: 's1' });
        expectTyped(await caught(() => turn(runner, { message: 'hi', stateDelta: proto })), {
          message: /event\.actions\.stateDelta\["__proto__"\]: is not a usable state key/,
        });
        const stored = await store.getSession({ appName: 'writer', userId: 'u1', sessionId: 's1' });
        expect({
          revision: stored?.revision,
          prototype: Object.getPrototypeOf(stored?.state) === Object.prototype,
          polluted: ({} as Record<string, unknown>)['polluted'],
        }).toEqual({ revision: 0, prototype: true, polluted: undefined });
        const { api, pipelineRunner, resources } = await import('../server/helpers.js');
        const res = resources();
        try {
          const { url } = await res.serve({
            runner: await pipelineRunner(res.sqlite(join(await res.dir(), 'proto.db'))),
          });
          const sessions = '/apps/draft_and_review/users/ann/sessions';
          expect((await api(url).post(sessions, '{"sessionId": "p1", "state": {"__proto__": {"x": 1}}}')).status).toBe(
            400,
          );
          await api(url).post(sessions, { sessionId: 'p2' });
          const reply = await api(url).post(
            `${sessions}/p2/run`,
            '{"message": "hi", "stateDelta": {"__proto__": {"x": 1}}}',
          );
          expect({ status: reply.status, code: reply.json.error.code }).toEqual({ status: 400, code: 'invalid_input' });
          expect((await api(url).get(`${sessions}/p2`)).json.revision).toBe(0);
        } finally {
          await res.cleanup();
        }
      },
    },
    {
      id: 'state.copies',
      entry: 'state',
      tried: 'mutating an object read from a session or from a tool’s `state.get`',
      expected: 'the store and other readers are unchanged: state hands out copies',
      run: async () => {
        const store = createInMemorySessionStore();
        const session = await store.createSession({
          appName: 'a',
          userId: 'u',
          sessionId: 's',
          state: { 'user:prefs': { tone: 'formal' } },
        });
        (session.state['user:prefs'] as { tone: string }).tone = 'hacked';
        const other = await store.createSession({ appName: 'a', userId: 'u', sessionId: 's2' });
        expect(other.state['user:prefs']).toEqual({ tone: 'formal' });
        expect((await store.getSession({ appName: 'a', userId: 'u', sessionId: 's' }))?.state['user:prefs']).toEqual({
          tone: 'formal',
        });
      },
    },
  ],
  { afterAll: () => tmp.cleanup() },
);
