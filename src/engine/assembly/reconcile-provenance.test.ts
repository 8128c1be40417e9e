import { describe, expect, it } from 'vitest';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest, Message, ToolDeclaration } from '../../contracts/request.js';
import type { Source, SourceSubstitution } from '../../contracts/source.js';
import { partPieces, sourceAt, systemPieces, toolDescriptionPieces } from './provenance-pieces.js';
import { reconcileProvenance } from './reconcile-provenance.js';

const hook: Source = {
  kind: 'callback',
  processor: 'beforeModel',
  agent: 'support',
  field: 'callbacks.beforeModel',
  note: 'beforeModel callback',
};
const plugin: Source = {
  kind: 'callback',
  processor: 'beforeModel',
  extension: 'redactor',
  agent: 'support',
  note: 'redactor plugin',
};

function source(processor: string, substitutions?: SourceSubstitution[]): Source {
  return substitutions === undefined
    ? { kind: 'instruction', processor, agent: 'support' }
    : { kind: 'instruction', processor, agent: 'support', substitutions };
}

type Assembled = { request: LlmRequest; provenance: Provenance };

/** A request as assembly would leave it: blocks joined by blank lines, one source per block, tool and part. */
function assembled(
  blocks: { text: string; source: Source }[],
  tools: ToolDeclaration[] = [],
  messages: Message[] = [],
): Assembled {
  let system = '';
  const ranges: Provenance['system'] = [];
  for (const block of blocks) {
    if (system !== '') system += '\n\n';
    ranges.push({ start: system.length, end: system.length + block.text.length, source: block.source });
    system += block.text;
  }
  return {
    request: { system, tools, messages, config: {} },
    provenance: {
      system: ranges,
      tools: tools.map((tool) => ({ kind: 'tool', processor: 'tools', agent: 'support', field: `tools.${tool.name}` })),
      messages: messages.map((message, index) =>
        message.content.map((_, part) => ({
          kind: 'history',
          processor: 'contents',
          agent: 'support',
          eventIds: [`e${index}.${part}`],
        })),
      ),
    },
  };
}

/** Runs a hook on a copy, as the runner would, and reconciles. */
function hookRun(from: Assembled, by: Source, edit: (request: LlmRequest) => void): Assembled {
  const request = structuredClone(from.request);
  edit(request);
  const frozen = structuredClone(from);
  const provenance = reconcileProvenance(from.request, from.provenance, request, by);
  expect(from).toEqual(frozen);
  return { request, provenance };
}

function systemView(result: Assembled): [string, string | undefined][] {
  return systemPieces(result.request, result.provenance).map((piece) => [
    result.request.system.slice(piece.start, piece.end),
    piece.separator === true
      ? 'separator'
      : piece.edit !== undefined
        ? `edit:${piece.edit.by.extension ?? piece.edit.by.processor}`
        : piece.source?.processor,
  ]);
}

const role = source('instruction');
const user = source('user-info');
const base = (): Assembled =>
  assembled([
    { text: 'You are a helpful assistant.', source: role },
    { text: 'The user is Ada Lovelace.', source: user },
  ]);

describe('reconcileProvenance: system', () => {
  it('leaves the provenance of an unedited request as it was', () => {
    const start = assembled(
      [
        {
          text: 'Hi {name}',
          source: source('a', [
            { placeholder: '{name}', start: 3, end: 6, kind: 'state', key: 'name', scope: 'session', present: true },
          ]),
        },
      ],
      [{ name: 'search', description: 'Search the web.' }],
      [{ role: 'user', content: [{ text: 'hello' }, { functionCall: { name: 'search', args: { q: 'x' } } }] }],
    );
    const result = hookRun(start, hook, () => undefined);
    expect(result.provenance).toEqual(start.provenance);
    expect('edits' in result.provenance).toBe(false);
    expect('removed' in result.provenance).toBe(false);
  });

  it('attributes a replacement inside a block to the hook, as one edit', () => {
    const result = hookRun(base(), hook, (request) => {
      request.system = request.system.replace('Ada', 'REDACTED');
    });
    expect(result.provenance.system).toEqual([
      { start: 0, end: 28, source: role },
      { start: 30, end: 60, source: user },
    ]);
    expect(result.provenance.edits).toEqual([
      { target: { in: 'system' }, start: 42, end: 50, by: hook, replaced: 'Ada' },
    ]);
    expect(systemView(result)).toEqual([
      ['You are a helpful assistant.', 'instruction'],
      ['\n\n', 'separator'],
      ['The user is ', 'user-info'],
      ['REDACTED', 'edit:beforeModel'],
      [' Lovelace.', 'user-info'],
    ]);
    expect(sourceAt(result.request, result.provenance, { in: 'system' }, 45)).toBe(hook);
    expect(sourceAt(result.request, result.provenance, { in: 'system' }, 28)).toBeUndefined();
  });

  it('gives appended text to the last block and prepended text to the first', () => {
    const appended = hookRun(base(), hook, (request) => {
      request.system += '\n\nAnswer briefly.';
    });
    expect(appended.provenance.system[1]).toEqual({ start: 30, end: 72, source: user });
    expect(appended.provenance.edits).toEqual([{ target: { in: 'system' }, start: 55, end: 72, by: hook }]);

    const prepended = hookRun(base(), hook, (request) => {
      request.system = 'IMPORTANT: ' + request.system;
    });
    expect(prepended.provenance.system).toEqual([
      { start: 0, end: 39, source: role },
      { start: 41, end: 66, source: user },
    ]);
    expect(prepended.provenance.edits).toEqual([{ target: { in: 'system' }, start: 0, end: 11, by: hook }]);
  });

  it('keeps separators around a paragraph inserted between blocks', () => {
    const result = hookRun(base(), hook, (request) => {
      request.system = request.system.replace('\n\n', '\n\nBe kind.\n\n');
    });
    expect(systemView(result)).toEqual([
      ['You are a helpful assistant.', 'instruction'],
      ['\n\n', 'separator'],
      ['Be kind.\n\n', 'edit:beforeModel'],
      ['The user is Ada Lovelace.', 'user-info'],
    ]);
  });

  it('makes text written into an empty system a block of the hook', () => {
    const result = hookRun(assembled([]), hook, (request) => {
      request.system = 'Be terse.';
    });
    expect(result.provenance.system).toEqual([{ start: 0, end: 9, source: hook }]);
    expect(result.provenance.edits).toBeUndefined();
  });

  it('lists a deleted block as removed and keeps the others in place', () => {
    const start = assembled([
      { text: 'First.', source: source('one') },
      { text: 'Second.', source: source('two') },
      { text: 'Third.', source: source('three') },
    ]);
    const result = hookRun(start, hook, (request) => {
      request.system = 'First.\n\nThird.';
    });
    expect(result.provenance.system).toEqual([
      { start: 0, end: 6, source: source('one') },
      { start: 8, end: 14, source: source('three') },
    ]);
    expect(result.provenance.removed).toEqual([
      { what: 'system-block', source: source('two'), by: hook, preview: 'Second.' },
    ]);
    expect(result.provenance.edits).toBeUndefined();
  });

  it('records a deletion inside a block as an empty edit with the text it removed', () => {
    const result = hookRun(base(), hook, (request) => {
      request.system = request.system.replace(' Lovelace', '');
    });
    expect(result.provenance.edits).toEqual([
      { target: { in: 'system' }, start: 45, end: 45, by: hook, replaced: ' Lovelace' },
    ]);
    expect(result.provenance.system[1]).toEqual({ start: 30, end: 46, source: user });
  });

  it('splits a rewrite across two blocks into one edit per block', () => {
    const result = hookRun(base(), hook, (request) => {
      request.system = request.system.replace('assistant.\n\nThe user', 'bot; the person');
    });
    expect(systemView(result)).toEqual([
      ['You are a helpful ', 'instruction'],
      ['bot; the person', 'edit:beforeModel'],
      [' is Ada Lovelace.', 'user-info'],
    ]);
    expect(result.provenance.edits).toEqual([
      { target: { in: 'system' }, start: 18, end: 33, by: hook, replaced: 'assistant.\n\n' },
      { target: { in: 'system' }, start: 33, end: 33, by: hook, replaced: 'The user' },
    ]);
    expect(result.provenance.system).toEqual([
      { start: 0, end: 33, source: role },
      { start: 33, end: 50, source: user },
    ]);
  });

  it('shifts substitutions after an edit and drops the one it rewrote', () => {
    const name: SourceSubstitution = {
      placeholder: '{name}',
      start: 6,
      end: 9,
      kind: 'state',
      key: 'name',
      scope: 'session',
      present: true,
    };
    const city: SourceSubstitution = {
      placeholder: '{city}',
      start: 22,
      end: 27,
      kind: 'state',
      key: 'city',
      scope: 'user',
      present: true,
    };
    const start = assembled([{ text: 'Hello Ada, you are in Paris.', source: source('greeting', [name, city]) }]);
    const renamed = hookRun(start, hook, (request) => {
      request.system = request.system.replace('Ada', 'Roberta');
    });
    expect(renamed.provenance.system[0]?.source.substitutions).toEqual([{ ...city, start: 26, end: 31 }]);
    expect(renamed.request.system.slice(26, 31)).toBe('Paris');

    const prefixed = hookRun(start, hook, (request) => {
      request.system = '>> ' + request.system;
    });
    expect(prefixed.provenance.system[0]?.source.substitutions).toEqual([
      { ...name, start: 9, end: 12 },
      { ...city, start: 25, end: 30 },
    ]);

    const bothGone = hookRun(start, hook, (request) => {
      request.system = 'Hello.';
    });
    expect(bothGone.provenance.system[0]?.source.substitutions).toBeUndefined();
  });

  it('credits characters a second hook rewrote to it and keeps the first hook for the rest', () => {
    const first = hookRun(base(), hook, (request) => {
      request.system = request.system.replace('Ada', 'REDACTED');
    });
    const second = hookRun(first, plugin, (request) => {
      request.system = request.system.replace('DACT', '[hidden]');
    });
    expect(systemView(second)).toEqual([
      ['You are a helpful assistant.', 'instruction'],
      ['\n\n', 'separator'],
      ['The user is ', 'user-info'],
      ['RE', 'edit:beforeModel'],
      ['[hidden]', 'edit:redactor'],
      ['ED', 'edit:beforeModel'],
      [' Lovelace.', 'user-info'],
    ]);
    expect(second.provenance.edits).toEqual([
      { target: { in: 'system' }, start: 42, end: 44, by: hook, replaced: 'Ada' },
      { target: { in: 'system' }, start: 44, end: 52, by: plugin, replaced: 'DACT' },
      { target: { in: 'system' }, start: 52, end: 54, by: hook },
    ]);
    // An unedited third pass changes nothing.
    expect(hookRun(second, hook, () => undefined).provenance).toEqual(second.provenance);
  });

  it('keeps an empty block between its neighbours', () => {
    const start: Assembled = {
      request: { system: 'One.\n\nTwo.', tools: [], messages: [], config: {} },
      provenance: {
        system: [
          { start: 0, end: 0, source: source('empty') },
          { start: 0, end: 4, source: source('one') },
          { start: 6, end: 10, source: source('two') },
        ],
        tools: [],
        messages: [],
      },
    };
    const result = hookRun(start, hook, (request) => {
      request.system = 'Zero. ' + request.system;
    });
    expect(result.provenance.system).toEqual([
      { start: 0, end: 0, source: source('empty') },
      { start: 0, end: 10, source: source('one') },
      { start: 12, end: 16, source: source('two') },
    ]);
  });
});

describe('reconcileProvenance: messages', () => {
  const conversation = (): Assembled =>
    assembled(
      [{ text: 'Be helpful.', source: role }],
      [],
      [
        { role: 'user', content: [{ text: 'What is the weather in Paris?' }] },
        { role: 'model', content: [{ functionCall: { name: 'weather', args: { city: 'Paris' } } }] },
        { role: 'user', content: [{ functionResponse: { name: 'weather', response: { sky: 'clear' } } }] },
      ],
    );

  it('sources an inserted message to the hook and keeps the others', () => {
    const start = conversation();
    const result = hookRun(start, hook, (request) => {
      request.messages.splice(1, 0, { role: 'user', content: [{ text: 'Context: it is July.' }] });
    });
    expect(result.provenance.messages).toEqual([
      start.provenance.messages[0],
      [hook],
      start.provenance.messages[1],
      start.provenance.messages[2],
    ]);
    expect(result.provenance.edits).toBeUndefined();
  });

  it('tells a message inserted before an edited one from the edited one', () => {
    const start = conversation();
    const result = hookRun(start, hook, (request) => {
      const part = request.messages[0]?.content[0];
      if (part !== undefined && 'text' in part) part.text = part.text.replace('Paris', 'Lyon');
      request.messages.unshift({ role: 'user', content: [{ text: 'Note: the user is in a hurry.' }] });
    });
    expect(result.provenance.messages[0]).toEqual([hook]);
    expect(result.provenance.messages[1]).toEqual(start.provenance.messages[0]);
    expect(result.provenance.edits).toEqual([
      { target: { in: 'part', message: 1, part: 0 }, start: 23, end: 27, by: hook, replaced: 'Paris' },
    ]);
    expect(result.provenance.removed).toBeUndefined();
  });

  it('lists a removed message with a preview', () => {
    const start = conversation();
    const result = hookRun(start, hook, (request) => {
      request.messages.splice(1, 2);
    });
    expect(result.provenance.messages).toEqual([start.provenance.messages[0]]);
    expect(result.provenance.removed).toEqual([
      {
        what: 'message',
        source: start.provenance.messages[1]?.[0],
        by: hook,
        preview: '{"functionCall":{"name":"weather","args":{"city":"Paris"}}}',
      },
      {
        what: 'message',
        source: start.provenance.messages[2]?.[0],
        by: hook,
        preview: '{"functionResponse":{"name":"weather","response":{"sky":"clear"}}}',
      },
    ]);
  });

  it('edits a changed text part in place and re-maps its edits when messages move', () => {
    const start = conversation();
    const edited = hookRun(start, hook, (request) => {
      const part = request.messages[0]?.content[0];
      if (part !== undefined && 'text' in part) part.text = part.text.replace('Paris', 'Lyon');
    });
    expect(edited.provenance.messages[0]).toEqual(start.provenance.messages[0]);
    expect(edited.provenance.edits).toEqual([
      { target: { in: 'part', message: 0, part: 0 }, start: 23, end: 27, by: hook, replaced: 'Paris' },
    ]);
    expect(
      partPieces(edited.request, edited.provenance, 0, 0).map((piece) => [piece.start, piece.end, piece.source?.kind]),
    ).toEqual([
      [0, 23, 'history'],
      [23, 27, 'callback'],
      [27, 28, 'history'],
    ]);

    const moved = hookRun(edited, plugin, (request) => {
      request.messages.unshift({ role: 'user', content: [{ text: 'Earlier: hi' }] });
      request.messages[3]?.content.push({ text: 'extra' });
    });
    expect(moved.provenance.edits).toEqual([
      { target: { in: 'part', message: 1, part: 0 }, start: 23, end: 27, by: hook, replaced: 'Paris' },
    ]);
    expect(moved.provenance.messages[3]).toEqual([...(start.provenance.messages[2] ?? []), plugin]);
  });

  it('re-maps the substitutions of an edited text part', () => {
    const city: SourceSubstitution = {
      placeholder: '{city}',
      start: 9,
      end: 14,
      kind: 'state',
      key: 'city',
      scope: 'user',
      present: true,
    };
    const start = assembled([], [], [{ role: 'user', content: [{ text: 'I am in Paris.' }] }]);
    start.provenance.messages[0] = [
      { kind: 'history', processor: 'contents', agent: 'support', substitutions: [city] },
    ];
    const result = hookRun(start, hook, (request) => {
      request.messages[0] = { role: 'user', content: [{ text: 'Note: I am in Paris.' }] };
    });
    expect(result.provenance.messages[0]?.[0]?.substitutions).toEqual([{ ...city, start: 15, end: 20 }]);
    expect(result.provenance.edits).toEqual([
      { target: { in: 'part', message: 0, part: 0 }, start: 0, end: 6, by: hook },
    ]);
  });

  it('replaces a changed non-text part and lists the old one', () => {
    const start = conversation();
    const result = hookRun(start, hook, (request) => {
      request.messages[1] = { role: 'model', content: [{ functionCall: { name: 'weather', args: { city: 'Lyon' } } }] };
    });
    expect(result.provenance.messages[1]).toEqual([hook]);
    expect(result.provenance.removed).toEqual([
      {
        what: 'part',
        source: start.provenance.messages[1]?.[0],
        by: hook,
        preview: '{"functionCall":{"name":"weather","args":{"city":"Paris"}}}',
      },
    ]);
  });

  it('does not treat a part rebuilt in another key order as changed', () => {
    const start = assembled([], [], [{ role: 'model', content: [{ text: 'hi', thought: true }] }]);
    const result = hookRun(start, hook, (request) => {
      request.messages[0] = { role: 'model', content: [{ thought: true, text: 'hi' }] };
    });
    expect(result.provenance).toEqual(start.provenance);
  });
});

describe('reconcileProvenance: tools', () => {
  const withTools = (): Assembled =>
    assembled(
      [],
      [
        { name: 'search', description: 'Search the web for a query.', parameters: { type: 'object' } },
        { name: 'fetch', description: 'Fetch a page.' },
      ],
    );

  it('sources an added tool to the hook and lists a removed one', () => {
    const start = withTools();
    const result = hookRun(start, hook, (request) => {
      request.tools.splice(0, 1);
      request.tools.push({ name: 'calc', description: 'Compute.' });
    });
    expect(result.provenance.tools).toEqual([start.provenance.tools[1], hook]);
    expect(result.provenance.removed).toEqual([
      { what: 'tool', source: start.provenance.tools[0], by: hook, preview: 'search: Search the web for a query.' },
    ]);
  });

  it('keeps the source of a tool whose description alone changed, with edits', () => {
    const start = withTools();
    const result = hookRun(start, hook, (request) => {
      const tool = request.tools[0];
      if (tool !== undefined) tool.description = tool.description.replace('the web', 'our docs');
    });
    expect(result.provenance.tools).toEqual(start.provenance.tools);
    expect(result.provenance.edits).toEqual([
      { target: { in: 'tool', tool: 0 }, start: 7, end: 15, by: hook, replaced: 'the web' },
    ]);
    expect(
      toolDescriptionPieces(result.request, result.provenance, 0).map((piece) =>
        result.request.tools[0]?.description.slice(piece.start, piece.end),
      ),
    ).toEqual(['Search ', 'our docs', ' for a query.']);
  });

  it('gives a tool whose parameters changed to the hook, noting where it came from', () => {
    const start = withTools();
    const result = hookRun(start, hook, (request) => {
      request.tools.reverse();
      const tool = request.tools[1];
      if (tool !== undefined) tool.parameters = { type: 'object', properties: { q: { type: 'string' } } };
    });
    expect(result.provenance.tools[0]).toEqual(start.provenance.tools[1]);
    expect(result.provenance.tools[1]).toEqual({
      ...hook,
      note: 'beforeModel callback changed this tool; it was tool from agent support',
    });
  });
});

describe('reconcileProvenance: size', () => {
  it('reconciles a 100 KB system text and a 500-message history to the one edit and the one removal', () => {
    const paragraph = 'The user is Ada Lovelace and wants long answers about engines. '.repeat(80);
    const messages: Message[] = Array.from({ length: 500 }, (_, index) => ({
      role: index % 2 === 0 ? 'user' : 'model',
      content: [{ text: `message ${index} ${'lorem ipsum '.repeat(20)}` }],
    }));
    const start = assembled(
      Array.from({ length: 20 }, (_, index) => ({
        text: `Block ${index}: ${paragraph}`,
        source: source(`block${index}`),
      })),
      [],
      messages,
    );
    expect(start.request.system.length).toBeGreaterThan(100_000);
    const after = structuredClone(start.request);
    after.system = after.system.replace('Ada', 'Bob');
    after.messages.splice(400, 1);
    // How fast is bench:assembly's business (its reconcile line); here, that a large request comes out with exactly the one edit and removal.
    const result = reconcileProvenance(start.request, start.provenance, after, hook);
    expect(result.edits).toHaveLength(1);
    expect(result.removed).toHaveLength(1);
    expect(result.messages).toHaveLength(499);
  });
});
