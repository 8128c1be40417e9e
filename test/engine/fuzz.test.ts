import fc from 'fast-check';
import { expect } from 'vitest';
import type { Part } from '../../src/contracts/content.js';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import { TemplateError } from '../../src/contracts/errors/template-error.js';
import type { Event, EventCompaction } from '../../src/contracts/event.js';
import { coversEvent } from '../../src/engine/compaction/compaction-ranges.js';
import { planSlidingWindow } from '../../src/engine/compaction/sliding-window.js';
import { planTokenCompaction } from '../../src/engine/compaction/token-threshold.js';
import { pythonStr } from '../../src/engine/python/python-format.js';
import { parseCompactionConfig } from '../../src/features/compaction/compaction-config.js';
import { buildContents } from '../../src/features/contents/build-contents.js';
import { checkTemplate } from '../../src/features/templating/check-template.js';
import { injectState, renderTemplate } from '../../src/features/templating/inject-state.js';
import { toAnthropicMessages } from '../../src/models/anthropic/to-anthropic-request.js';
import { toGeminiContents } from '../../src/models/gemini/gemini-contents.js';
import { toOpenAIMessages } from '../../src/models/openai/to-openai-request.js';
import { events, trickyText } from '../reliability/arbitraries.js';
import { defineRows } from '../reliability/rows.js';
import { propertyRuns } from '../support/property-runs.js';

// Part 2, the template engine, the contents builder and compaction planning, over inputs no one would write by hand.
const KEYS = ['name', 'plan', 'user:name', 'app:tier', 'temp:x', 'state.plan'];
const state = fc.dictionary(
  fc.constantFrom(...KEYS, 'other'),
  fc.oneof(trickyText, fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
  { maxKeys: 5 },
);
const LITERAL_KEYS = ['name', 'plan', 'user:name'];
/** Text that is itself a template: the keys' placeholders in every spelling, escapes, lone and doubled braces. */
const templateLike = fc
  .array(
    fc.oneof(
      trickyText,
      fc.constantFrom(
        ...[...LITERAL_KEYS, 'app:tier', 'temp:x', 'other'].flatMap((key) => [
          `{${key}}`,
          `{${key}?}`,
          `{{${key}}}`,
          `\\{${key}\\}`,
          `\\\\{${key}}`,
        ]),
      ),
      fc.constantFrom(
        '{state.plan}',
        '{artifact.notes.txt}',
        '{artifact.notes.txt?}',
        '{',
        '}',
        '{{',
        '}}',
        '\\',
        '\\{',
        '{ name }',
        '{name',
        'name}',
      ),
    ),
    { maxLength: 6 },
  )
  .map((pieces) => pieces.join(''));
const template = fc
  .array(
    fc.oneof(
      trickyText,
      fc.constantFrom(...KEYS).map((key) => `{${key}}`),
      fc.constantFrom(...KEYS).map((key) => `{${key}?}`),
    ),
    { maxLength: 8 },
  )
  .map((pieces) => pieces.join(''));

/** Events shaped like a session: few authors, invocations, branches and call ids, so calls, responses and rewinds meet. */
const sessionEvents = (maxLength: number) =>
  fc.tuple(events(maxLength), fc.array(fc.nat({ max: 3 }), { minLength: 48, maxLength: 48 })).map(([list, picks]) => {
    const pick = <T>(options: readonly T[], at: number): T =>
      options[(picks[at % picks.length] ?? 0) % options.length] as T;
    const callIds = ['c1', 'c2', 'c3', 'adk-c4'];
    return list.map((event, index): Event => {
      const parts = event.content?.parts.map((part): Part => {
        if ('functionCall' in part)
          return { ...part, functionCall: { ...part.functionCall, id: pick(callIds, index), name: 'tool' } };
        if ('functionResponse' in part)
          return { functionResponse: { ...part.functionResponse, id: pick(callIds, index + 1), name: 'tool' } };
        return part;
      });
      const { branch: _branch, ...rest } = event;
      // Summaries as summarizers write them: some text, standing for earlier events.
      const original = event.actions.compaction;
      const listed = list.slice(0, index).filter((_item, at) => at % 2 === index % 2);
      const [from, to] =
        original?.eventIds === undefined
          ? [
              1 + (Math.floor(original?.startTimestamp ?? 0) % (index + 1)),
              1 + (Math.floor(original?.endTimestamp ?? 0) % (index + 1)),
            ]
          : [listed[0]?.timestamp ?? index, listed.at(-1)?.timestamp ?? index];
      const compaction =
        original === undefined
          ? undefined
          : {
              startTimestamp: Math.min(from, to),
              endTimestamp: Math.max(from, to),
              compactedContent: {
                role: original.compactedContent.role,
                parts: [{ text: 'summary' }, ...original.compactedContent.parts],
              },
              ...(original.eventIds === undefined ? {} : { eventIds: listed.map((item) => item.id) }),
            };
      return {
        ...rest,
        author: pick(['user', 'agent', 'other'], index),
        invocationId: `inv${Math.floor(index / 3)}`,
        ...(pick([0, 0, 1, 2], index + 2) === 0 ? {} : { branch: pick(['agent', 'agent.child', 'other'], index + 3) }),
        ...(event.content === undefined || parts === undefined ? {} : { content: { ...event.content, parts } }),
        actions: {
          ...event.actions,
          ...(event.actions.rewindBeforeInvocationId === undefined
            ? {}
            : { rewindBeforeInvocationId: `inv${pick([0, 1, 2, 3], index)}` }),
          ...(compaction === undefined ? {} : { compaction }),
        },
      };
    });
  });

export const rows = defineRows(import.meta.url, 'fuzzing', [
  {
    id: 'fuzz.template.total',
    entry: 'template engine',
    tried:
      'random templates (placeholders of every scope, optional marks, stray and doubled braces, escapes) against random state',
    expected:
      'rendering returns text or throws a TemplateError, nothing else; `checkTemplate(…).ok` says in advance which',
    run: () =>
      fc.assert(
        fc.asyncProperty(
          template,
          state,
          fc.boolean(),
          fc.constantFrom('default' as const, 'python' as const),
          async (text, values, escapes, valueFormat) => {
            let failed = false;
            try {
              expect(typeof (await injectState(text, { state: values, escapes, valueFormat }))).toBe('string');
            } catch (error) {
              if (!(error instanceof TemplateError)) throw error;
              failed = true;
            }
            expect(checkTemplate(text, { state: values, escapes }).ok).toBe(!failed);
          },
        ),
        propertyRuns(300),
      ),
  },
  {
    id: 'fuzz.template.values-literal',
    entry: 'template engine',
    tried:
      "values made of the template's own placeholders (`{name}`, `{plan?}`, `{user:name}`, `{state.plan}`, `{artifact.notes.txt}`), doubled and lone braces, backslashes and escapes, inserted between random literal text, with every key and artifact present, escapes on and off, both value formats",
    expected:
      'the output is exactly the pieces with each value inserted once, as written, and each recorded substitution covers exactly its value: an inserted value is never read again as a template',
    run: () =>
      fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.stringMatching(/^[^{}\\]*$/).map((text) => ({ text })),
              fc.constantFrom(...LITERAL_KEYS).map((key) => ({ key })),
            ),
            { maxLength: 8 },
          ),
          fc.tuple(templateLike, templateLike, templateLike),
          fc.boolean(),
          fc.constantFrom('default' as const, 'python' as const),
          async (pieces, [a, b, c], escapes, valueFormat) => {
            // Every placeholder a value holds would find something if it were read again: all keys and artifacts exist.
            const state: Record<string, string> = {
              name: a,
              plan: b,
              'user:name': c,
              'app:tier': 'TIER',
              'temp:x': 'TEMP',
              other: 'OTHER',
            };
            const artifacts = { readText: async (name: string) => `ARTIFACT(${name})` };
            const template = pieces.map((piece) => ('key' in piece ? `{${piece.key}}` : piece.text)).join('');
            const expected = pieces.map((piece) => ('key' in piece ? state[piece.key] : piece.text)).join('');
            const options = { state, artifacts, escapes, valueFormat };
            expect(await injectState(template, options)).toBe(expected);
            const rendered = await renderTemplate(template, options);
            expect(rendered.text).toBe(expected);
            const inserted = pieces.flatMap((piece) => ('key' in piece ? [state[piece.key]] : []));
            expect(rendered.substitutions.map((at) => rendered.text.slice(at.start, at.end))).toEqual(inserted);
          },
        ),
        propertyRuns(300),
      ),
  },
  {
    id: 'fuzz.contents.total',
    entry: 'contents builder',
    tried:
      'random session histories: other agents, branches, calls answered late, twice or never, rewinds, overlapping summaries',
    expected:
      "contents are built the same twice, with user/model roles and no empty message, and every provider adapter converts them; the only error is ADK's typed `invalid_history` for a response whose call is nowhere",
    run: () =>
      fc.assert(
        fc.property(
          sessionEvents(14),
          fc.constantFrom('exact' as const, 'adk' as const),
          fc.constantFrom(undefined, 'agent', 'agent.child'),
          (history, compactionView, branch) => {
            const options = {
              agentName: 'agent',
              branch,
              preserveFunctionCallIds: true,
              embed: pythonStr,
              compactionView,
            };
            let built: ReturnType<typeof buildContents>;
            try {
              built = buildContents(history, options);
            } catch (error) {
              // ADK's own refusal of a response whose call is nowhere (`invalid_history`) is the one error allowed.
              expect(AgentctxError.isInstance(error) && error.code === 'invalid_history', String(error)).toBe(true);
              return;
            }
            expect(buildContents(history, options)).toEqual(built);
            const messages = built.map((draft) => draft.message);
            for (const message of messages) {
              expect(['user', 'model']).toContain(message.role);
              expect(message.content.length).toBeGreaterThan(0);
            }
            toOpenAIMessages(messages);
            toAnthropicMessages(messages);
            toGeminiContents(messages);
          },
        ),
        propertyRuns(300),
      ),
  },
  {
    id: 'fuzz.compaction.plans',
    entry: 'compaction planning',
    tried: 'random histories and windows, thresholds and retention sizes, with and without the running turn to keep',
    expected:
      'a plan lists only raw events of the history, once each, in order, never the kept turn or anything after it; planning twice gives the same plan',
    run: () =>
      fc.assert(
        fc.property(
          sessionEvents(16),
          fc.integer({ min: 1, max: 4 }),
          fc.nat({ max: 3 }),
          fc.nat({ max: 6 }),
          fc.nat({ max: 16 }),
          (history, interval, overlap, retention, keepAt) => {
            // The running turn's question, as the runner passes it: newer than everything a summary stands for.
            const raw = history.filter((event) => event.actions.compaction === undefined);
            const summarized = history.flatMap((event) =>
              event.actions.compaction === undefined
                ? []
                : raw.filter((other) => coversEvent(event.actions.compaction as EventCompaction, other)),
            );
            const kept = history[keepAt];
            const keepFrom =
              kept !== undefined && raw.includes(kept) && summarized.every((event) => history.indexOf(event) < keepAt)
                ? kept.id
                : undefined;
            const plans = [
              planSlidingWindow(history, { compactionInterval: interval, overlapSize: overlap }),
              planSlidingWindow(history, { compactionInterval: interval, overlapSize: overlap }, false),
              planTokenCompaction(
                history,
                { tokenThreshold: 1, eventRetentionSize: retention },
                { promptTokens: 10, keepFrom, newId: () => 'seed' },
              ),
            ];
            expect(
              planTokenCompaction(
                history,
                { tokenThreshold: 1, eventRetentionSize: retention },
                { promptTokens: 10, keepFrom, newId: () => 'seed' },
              ),
            ).toEqual(plans[2]);
            for (const plan of plans) {
              if (plan === undefined) continue;
              const positions = plan.events.map((event) => history.indexOf(event));
              expect(positions.every((position) => position >= 0)).toBe(true);
              expect(positions).toEqual([...positions].sort((a, b) => a - b));
              expect(new Set(positions).size).toBe(positions.length);
              expect(plan.events.some((event) => event.actions.compaction !== undefined)).toBe(false);
              expect(plan.startTimestamp).toBeLessThanOrEqual(plan.endTimestamp);
            }
            if (plans[2] !== undefined && keepFrom !== undefined)
              expect(plans[2].events.every((event) => history.indexOf(event) < keepAt)).toBe(true);
          },
        ),
        propertyRuns(300),
      ),
  },
  {
    id: 'fuzz.compaction.config',
    entry: 'compaction planning',
    tried: 'arbitrary values as `eventsCompactionConfig`',
    expected: 'accepted or refused with a ValidationError; nothing else is thrown',
    run: () =>
      fc.assert(
        fc.property(
          fc.oneof(
            fc.anything({ maxDepth: 2 }),
            fc.record(
              {
                compactionInterval: fc.oneof(fc.integer(), fc.double(), fc.string()),
                overlapSize: fc.oneof(fc.integer(), fc.constant(null)),
                tokenThreshold: fc.anything(),
                eventRetentionSize: fc.integer(),
              },
              { requiredKeys: [] },
            ),
          ),
          (value) => {
            try {
              parseCompactionConfig(value);
            } catch (error) {
              expect(AgentctxError.isInstance(error), String(error)).toBe(true);
            }
          },
        ),
        propertyRuns(300),
      ),
  },
]);
