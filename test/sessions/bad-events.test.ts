import { join } from 'node:path';
import { expect } from 'vitest';
import type { ValidationError } from '../../src/contracts/errors/validation-error.js';
import { parseEvent, parseEvents } from '../../src/engine/session/decode-event.js';
import { parseSession } from '../../src/engine/session/session-json.js';
import { defineRows } from '../reliability/rows.js';
import { caught, expectTyped, scratch } from '../reliability/support.js';
import { cli, expectCliError } from '../support/cli.js';

// Part 1, events JSON (`parseEvent`, `parseEvents`, `parseSession`: what case files, session files and imports go
// through). Every problem is reported with its path; nothing is returned half-read.
const tmp = scratch();
const user = (text: string) => ({ role: 'user', parts: [{ text }] });
const event = (fields: Record<string, unknown> = {}) => ({
  id: 'e1',
  author: 'user',
  timestamp: 1,
  content: user('hi'),
  ...fields,
});

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'events.not-a-list',
      entry: 'events JSON',
      tried: 'an object where the list of events belongs, and a string where an event belongs',
      expected: '`expected a list, got an object`; `[0]: expected an event, got the string …`',
      run: async () => {
        expectTyped(await caught(() => parseEvents({ id: 'e1' })), {
          code: 'invalid_input',
          message: /^Invalid events: expected a list, got an object/,
        });
        expectTyped(await caught(() => parseEvents(['e1'])), {
          message: /\[0\]: expected an event, got the string "e1"/,
        });
      },
    },
    {
      id: 'events.missing-fields',
      entry: 'events JSON',
      tried: 'an event without `id`, `author` and `timestamp`',
      expected: 'all three named as required in one error',
      run: async () =>
        expectTyped(await caught(() => parseEvent({ content: user('hi') })), {
          message: /id: is required.*author: is required.*timestamp: is required/,
        }),
    },
    {
      id: 'events.bad-values',
      entry: 'events JSON',
      tried: 'a negative timestamp, `timestamp: NaN` and `partial: "no"`',
      expected: 'each value refused with what was expected',
      run: async () => {
        expectTyped(await caught(() => parseEvent(event({ timestamp: -1 }))), {
          message: /timestamp: must be at least 0, got -1/,
        });
        expectTyped(await caught(() => parseEvent(event({ timestamp: Number.NaN }))), {
          message: /timestamp: expected a finite number/,
        });
        expectTyped(await caught(() => parseEvent(event({ partial: 'no' }))), {
          message: /partial: expected true or false, got the string "no"/,
        });
      },
    },
    {
      id: 'events.unknown-field',
      entry: 'events JSON',
      tried: 'a misspelt action (`stateDleta`)',
      expected: "`unknown field (did you mean 'stateDelta'?)`; ADK's own extra fields are accepted",
      run: async () => {
        expectTyped(await caught(() => parseEvent(event({ actions: { stateDleta: {} } }))), {
          message: /actions\.stateDleta: unknown field \(did you mean 'stateDelta'\?\)/,
        });
        expect(parseEvent(event({ turnComplete: true, actions: { endOfAgent: true } })).id).toBe('e1');
      },
    },
    {
      id: 'events.bad-parts',
      entry: 'events JSON',
      tried:
        'a part with both text and a function call, role `assistant`, call args that are a list, inline data that is not base64',
      expected:
        "each refused by path: `exactly one of …`, `expected 'user' or 'model'`, `expected an object`, `expected base64 text`",
      run: async () => {
        expectTyped(
          await caught(() =>
            parseEvent(event({ content: { role: 'model', parts: [{ text: 'a', functionCall: { name: 'f' } }] } })),
          ),
          { message: /content\.parts\[0\]: a part holds exactly one of text, functionCall/ },
        );
        expectTyped(await caught(() => parseEvent(event({ content: { role: 'assistant', parts: [] } }))), {
          message: /content\.role: expected 'user' or 'model', got the string "assistant"/,
        });
        expectTyped(
          await caught(() =>
            parseEvent(event({ content: { role: 'model', parts: [{ functionCall: { name: 'f', args: [1] } }] } })),
          ),
          { message: /functionCall\.args: expected an object, got a list/ },
        );
        expectTyped(
          await caught(() =>
            parseEvent(
              event({
                content: { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'not base64!' } }] },
              }),
            ),
          ),
          { message: /inlineData\.data: expected base64 text/ },
        );
      },
    },
    {
      id: 'events.many-problems',
      entry: 'events JSON',
      tried: 'a list whose events have five problems between them',
      expected: 'the message shows three and says `(and 2 more)`; `issues` lists all five',
      run: async () => {
        const error = await caught(() => parseEvents([{ id: '' }, { id: 'e2', author: 1, timestamp: 'x' }, 7]));
        expectTyped(error, { message: /\(and \d+ more\)$/ });
        expect((error as ValidationError).issues.length).toBeGreaterThanOrEqual(5);
      },
    },
    {
      id: 'events.duplicate-ids',
      entry: 'events JSON',
      tried: 'two events with one id in a session file',
      expected: "`events[1].id: duplicate event id 'e1'`",
      run: async () =>
        expectTyped(
          await caught(() => parseSession({ appName: 'a', userId: 'u', id: 's', events: [event(), event()] })),
          { message: /events\[1\]\.id: duplicate event id 'e1'/ },
        ),
    },
    {
      id: 'events.newer-schema',
      entry: 'events JSON',
      tried: 'a session written by a newer release (`schemaVersion: 2`)',
      expected: '`unsupported_version`, with the hint to upgrade agentctx',
      run: async () =>
        expectTyped(await caught(() => parseSession({ schemaVersion: 2, appName: 'a', userId: 'u', id: 's' })), {
          code: 'unsupported_version',
          message: /schemaVersion: version 2 is not supported; this release reads version 1/,
          hint: /Upgrade agentctx/,
        }),
    },
    {
      id: 'events.truncated-file',
      entry: 'events JSON',
      tried: 'a case file whose JSON events were cut off mid-way',
      expected: 'the syntax error with line and column; CLI: one line, exit 2',
      run: async () => {
        const dir = await tmp.files({
          'case.json':
            '{"agent": {"name": "helper"}, "events": [{"id": "e1", "author": "user", "timestamp": 1, "content": {"role": "user", "parts": [{"text": "hel',
        });
        expectCliError(
          await cli(['inspect', join(dir, 'case.json')]),
          /Invalid .*case\.json: (\d+ problems: )?line 1, column \d+: /,
        );
      },
    },
  ],
  { afterAll: () => tmp.cleanup() },
);
