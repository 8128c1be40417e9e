import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declarePythonTools } from '../../src/cli/python-tools.js';
import type { PythonToolDeclaration } from '../../src/presets/python-tool.js';

// Python function tools declared as ADK 2.5.0 declares them (pydantic's JSON Schema of the signature, the cleaned
// docstring), read with this machine's python3 and `ast`, without importing the module. The cases and what they check
// are translated from ADK's tests/unittests/tools/test_function_tool_declarations.py at 2.5.0.

const MODULE = `
from typing import Any, Literal, Optional, Sequence
from google.adk.tools.tool_context import ToolContext

raise RuntimeError("the module is never run")

def greet(name: str = "World") -> str:
    """Greets someone.

    Args:
      name: who.
    """

def repeat(times: int = 3): ...
def search(query: str, limit: Optional[int] = None) -> str: ...
def process_data(data: dict[str, Any]) -> str: ...
def sum_scores(scores: dict[str, int]) -> int: ...
def process_items(items: Sequence[str]) -> int: ...
def add_point(coords: tuple[int, int]) -> int: ...
def set_mode(mode: Literal["fast", "slow", "auto"]) -> str: ...
def configure(mode: Literal["on", "off"] = "on") -> str: ...
def maybe(name: Optional[str] = None) -> str: ...
def either(value: int | str) -> str: ...
def no_params() -> str:
    """Nothing to ask."""
def untyped(value): ...
def anything(value: Any): ...
def with_context(query: str, tool_context: ToolContext) -> str: ...
def context_by_type(query: str, ctx: ToolContext) -> str: ...
async def streaming(query: str, input_stream: Any) -> str: ...
def keyword_only(*, flag: bool = False, count: int): ...
`;

let dir = '';
let declared: Record<string, PythonToolDeclaration> = {};
const NAMES = [
  'greet',
  'repeat',
  'search',
  'process_data',
  'sum_scores',
  'process_items',
  'add_point',
  'set_mode',
  'configure',
  'maybe',
  'either',
  'no_params',
  'untyped',
  'anything',
  'with_context',
  'context_by_type',
  'streaming',
  'keyword_only',
  'missing',
];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-python-tools-'));
  await mkdir(join(dir, 'my_agent'));
  await writeFile(join(dir, 'my_agent', '__init__.py'), '');
  await writeFile(join(dir, 'my_agent', 'tools.py'), MODULE);
  await writeFile(join(dir, 'my_agent', 'root_agent.yaml'), 'name: root\n');
  const declare = declarePythonTools(process.env, dir);
  declared = await declare(
    NAMES.map((name) => `my_agent.tools.${name}`),
    join('my_agent', 'root_agent.yaml'),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const schema = (name: string) =>
  (declared[`my_agent.tools.${name}`] as { parameters?: Record<string, unknown> }).parameters as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
    title: string;
    type: string;
  };

describe('Python function tools, declared as ADK 2.5.0 declares them', () => {
  it('names the function, cleans its docstring, and titles each parameter and the whole as pydantic does', () => {
    expect(declared['my_agent.tools.greet']).toEqual({
      name: 'greet',
      description: 'Greets someone.\n\nArgs:\n  name: who.',
      parameters: {
        properties: { name: { default: 'World', title: 'Name', type: 'string' } },
        title: 'greetParams',
        type: 'object',
      },
    });
  });

  it('keeps defaults, and leaves parameters with one out of required (test_string_with_default, test_int_with_default, test_none_default)', () => {
    expect(schema('repeat').properties['times']).toEqual({ default: 3, title: 'Times', type: 'integer' });
    expect(schema('search').required).toEqual(['query']);
    expect(schema('search').properties['limit']).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'null' }],
      default: null,
      title: 'Limit',
    });
  });

  it('reads collections (test_dict_parameter, test_dict_with_typed_values, test_sequence_type, test_tuple_fixed_length)', () => {
    expect(schema('process_data').properties['data']).toEqual({
      additionalProperties: true,
      title: 'Data',
      type: 'object',
    });
    expect(schema('sum_scores').properties['scores']).toEqual({
      additionalProperties: { type: 'integer' },
      title: 'Scores',
      type: 'object',
    });
    expect(schema('process_items').properties['items']).toEqual({
      items: { type: 'string' },
      title: 'Items',
      type: 'array',
    });
    expect(schema('add_point').properties['coords']).toEqual({
      maxItems: 2,
      minItems: 2,
      prefixItems: [{ type: 'integer' }, { type: 'integer' }],
      title: 'Coords',
      type: 'array',
    });
  });

  it('reads Literal, Optional and unions (test_literal_type, test_literal_with_default, test_optional_string, test_union_of_primitives)', () => {
    expect(schema('set_mode').properties['mode']).toEqual({
      enum: ['fast', 'slow', 'auto'],
      title: 'Mode',
      type: 'string',
    });
    expect(schema('configure').properties['mode']).toEqual({
      default: 'on',
      enum: ['on', 'off'],
      title: 'Mode',
      type: 'string',
    });
    expect(schema('maybe').properties['name']?.['anyOf']).toHaveLength(2);
    expect(schema('either').properties['value']).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      title: 'Value',
    });
  });

  it('declares no parameters for a function without any, and takes an unannotated or Any parameter as anything (test_no_parameters, test_no_type_annotations, test_any_type_parameter)', () => {
    expect(declared['my_agent.tools.no_params']).toEqual({ name: 'no_params', description: 'Nothing to ask.' });
    expect(schema('untyped').properties['value']).toEqual({ title: 'Value' });
    expect(schema('anything').properties['value']).toEqual({ title: 'Value' });
  });

  it('leaves out the tool context, by name or by its type, and input_stream (test_tool_context_ignored_via_ignore_params)', () => {
    for (const name of ['with_context', 'context_by_type', 'streaming']) {
      expect(Object.keys(schema(name).properties), name).toEqual(['query']);
      expect(schema(name).required, name).toEqual(['query']);
    }
    expect(schema('keyword_only')).toEqual({
      properties: {
        flag: { default: false, title: 'Flag', type: 'boolean' },
        count: { title: 'Count', type: 'integer' },
      },
      required: ['count'],
      title: 'keyword_onlyParams',
      type: 'object',
    });
  });

  it('says why a name has no declaration, and never runs the module (it raises when run)', () => {
    expect(declared['my_agent.tools.missing']).toEqual({
      error: expect.stringMatching(/^missing is not a function or a tool object made at the top of .*tools\.py/),
    });
  });

  it('says in one line what to install when there is no Python', async () => {
    const declare = declarePythonTools({ AGENTCTX_PYTHON: 'no-such-python-here' }, dir);
    await expect(declare(['my_agent.tools.greet'], join('my_agent', 'root_agent.yaml'))).rejects.toMatchObject({
      code: 'usage',
      message: "Python tools need Python, and 'no-such-python-here' is not there.",
    });
  });
});
