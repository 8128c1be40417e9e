import { describe, expect, it } from 'vitest';
import type { LlmRequest, ToolDeclaration } from '../../contracts/request.js';
import { loadedNames, referencedDeferredTools, withDeferredToolsLoaded } from './deferred-tools.js';

const declaration = (name: string): ToolDeclaration => ({
  name,
  description: `Does ${name}.`,
  parameters: { type: 'object', properties: { id: { type: 'string' } } },
});
const search = (loaded: unknown, id = 'c1') => ({
  functionResponse: { id, name: 'search_tools', response: { query: 'q', loaded } },
});

const request: LlmRequest = {
  system: 'Help.',
  tools: [declaration('search_tools'), declaration('clock')],
  deferredTools: {
    loader: 'search_tools',
    declarations: [declaration('merge'), declaration('close'), declaration('label')],
  },
  messages: [
    { role: 'user', content: [{ text: 'merge and label' }] },
    { role: 'model', content: [{ functionCall: { id: 'c1', name: 'search_tools', args: { query: 'q' } } }] },
    { role: 'user', content: [search(['label', 'nope', 'merge', 'label'])] },
    { role: 'model', content: [{ functionCall: { id: 'c2', name: 'search_tools', args: { query: 'q' } } }] },
    { role: 'user', content: [search(['merge', 'close'], 'c2')] },
  ],
  config: {},
};

describe('deferred tool definitions', () => {
  it('reads the strings of a response’s loaded list, each once, and nothing from anything else', () => {
    expect(loadedNames({ loaded: ['a', 3, 'b', 'a', null] })).toEqual(['a', 'b']);
    expect(loadedNames({ loaded: 'a' })).toEqual([]);
    expect(loadedNames({})).toEqual([]);
    expect(loadedNames(undefined)).toEqual([]);
  });

  it('lists the definitions the messages load, in the order first loaded, skipping names it does not defer', () => {
    expect(referencedDeferredTools(request).map((tool) => tool.name)).toEqual(['label', 'merge', 'close']);
    expect(referencedDeferredTools({ ...request, messages: request.messages.slice(0, 2) })).toEqual([]);
    const { deferredTools: _none, ...plain } = request;
    expect(referencedDeferredTools(plain)).toEqual([]);
  });

  it('reads only the loader’s responses', () => {
    const other = { functionResponse: { id: 'c3', name: 'other', response: { loaded: ['close'] } } };
    expect(referencedDeferredTools({ ...request, messages: [{ role: 'user', content: [other] }] })).toEqual([]);
  });

  it('offers the loaded definitions as ordinary tools for a provider that cannot hold them back', () => {
    const portable = withDeferredToolsLoaded(request);
    expect(portable.tools.map((tool) => tool.name)).toEqual(['search_tools', 'clock', 'label', 'merge', 'close']);
    expect('deferredTools' in portable).toBe(false);
    expect(portable.messages).toBe(request.messages);
    // The request given is not changed, and one without deferred definitions comes back as it is.
    expect(request.tools).toHaveLength(2);
    const { deferredTools: _none, ...plain } = request;
    expect(withDeferredToolsLoaded(plain)).toBe(plain);
  });

  it('never offers a name twice', () => {
    const clash = { ...request, tools: [...request.tools, declaration('merge')] };
    expect(withDeferredToolsLoaded(clash).tools.map((tool) => tool.name)).toEqual([
      'search_tools',
      'clock',
      'merge',
      'label',
      'close',
    ]);
  });
});
