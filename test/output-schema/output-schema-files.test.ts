import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scratch } from '../reliability/support.js';
import { cli, expectCliError, repositoryRoot } from '../support/cli.js';

// `output_schema` in agent files (issue 48): ADK's dotted name of a pydantic class, read from the module's source as
// ADK 2.5.0 builds its schema and `set_model_response` (the fixture is ADK's output_schema_with_tools sample as an
// Agent Config file), and agentctx's inline JSON Schema. The expected schemas are what pydantic 2.13.4 writes for
// the sample's `PersonInfo` (`model_json_schema()`, and `create_model("set_model_responseParams", …)` over its
// fields' annotations, as ADK's SetModelResponseTool builds them).

const tmp = scratch();
afterAll(() => tmp.cleanup());

const root = join(repositoryRoot, 'test/fixtures/output-schema/person_info/root_agent.yaml');

const field = (title: string, type: string) => ({ title, type });
const PARAMETERS = {
  properties: {
    name: field('Name', 'string'),
    age: field('Age', 'integer'),
    occupation: field('Occupation', 'string'),
    location: field('Location', 'string'),
    biography: field('Biography', 'string'),
  },
  required: ['name', 'age', 'occupation', 'location', 'biography'],
  title: 'set_model_responseParams',
  type: 'object',
};
const PERSON_INFO = {
  description: 'Structured information about a person.',
  properties: {
    name: { description: "The person's full name", title: 'Name', type: 'string' },
    age: { description: "The person's age in years", title: 'Age', type: 'integer' },
    occupation: { description: "The person's job or profession", title: 'Occupation', type: 'string' },
    location: { description: 'The city and country where they live', title: 'Location', type: 'string' },
    biography: { description: 'A brief biography of the person', title: 'Biography', type: 'string' },
  },
  required: ['name', 'age', 'occupation', 'location', 'biography'],
  title: 'PersonInfo',
  type: 'object',
};

type Request = { system: string; tools: { name: string; parameters?: unknown }[]; config: Record<string, unknown> };

async function inspect(file: string, ...more: string[]): Promise<Request> {
  const result = await cli(['inspect', file, '--json', ...more]);
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Request;
}

describe("ADK's output_schema_with_tools sample as an agent file", () => {
  it('gives the agent with tools set_model_response first, declared as ADK 2.5.0 declares it for PersonInfo', async () => {
    const request = await inspect(root);
    expect(request.tools.map((tool) => tool.name)).toEqual([
      'set_model_response',
      'transfer_to_agent',
      'search_wikipedia',
      'get_current_year',
    ]);
    expect(JSON.stringify(request.tools[0]?.parameters)).toBe(JSON.stringify(PARAMETERS));
    expect(request.system).toContain(
      '\n\nYou are an agent. Your internal name is "person_info_agent".\n\nIMPORTANT: You have access to other tools, but you must provide your final response using the set_model_response tool with the required structured format.',
    );
    expect(request.config['responseSchema']).toBeUndefined();
  });

  it('counts google_search as a tool, as ADK counts it', async () => {
    const request = await inspect(root, '--agent', 'knowledge_agent');
    expect(request.tools.map((tool) => tool.name)).toEqual(['set_model_response', 'transfer_to_agent']);
  });

  it('an agent without tools asks for JSON of the class’s schema, key for key as pydantic writes it', async () => {
    const dir = await tmp.files({
      'app/__init__.py': '',
      'app/agent.yaml': 'name: summary\nmodel: gemini-2.5-flash\noutput_schema: app.schemas.PersonInfo\n',
      'app/schemas.py': await (await import('node:fs/promises')).readFile(
        join(repositoryRoot, 'test/fixtures/output-schema/person_info/schemas.py'),
        'utf8',
      ),
    });
    const request = await inspect(join(dir, 'app/agent.yaml'));
    expect(JSON.stringify(request.config['responseSchema'])).toBe(JSON.stringify(PERSON_INFO));
    expect(request.config['responseMimeType']).toBe('application/json');
    expect(request.tools).toEqual([]);
  });

  it('runs: the tools, then set_model_response, whose answer is the final text and the output_key value', async () => {
    const dir = await tmp.files({
      'script.yaml':
        '- functionCall: { name: search_wikipedia, args: { query: Ada Lovelace } }\n' +
        '- functionCall: { name: set_model_response, args: { name: Ada Lovelace, age: 36, occupation: Mathematician, location: "London, England", biography: "Wrote the first program." } }\n',
    });
    const result = await cli([
      'run',
      root,
      '--model',
      `scripted:${join(dir, 'script.yaml')}`,
      '--store',
      'memory',
      '--message',
      'Who was Ada Lovelace?',
      '--profile',
      'adk',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/← search_wikipedia: \{"result":"Title: Ada Lovelace/);
    expect(result.stdout).toContain(
      '[person_info_agent] {"name": "Ada Lovelace", "age": 36, "occupation": "Mathematician", "location": "London, England", "biography": "Wrote the first program."}',
    );
    expect(result.stdout).toMatch(/state: person=\{"name":"Ada Lovelace","age":36/);
  });
});

describe('input_schema in agent files', () => {
  it('declares an AgentTool with the class’s schema and the agent’s description, as ADK 2.5.0 does', async () => {
    const dir = await tmp.files({
      'app/__init__.py': '',
      'app/schemas.py':
        'from pydantic import BaseModel\n\n\nclass CustomInput(BaseModel):\n  """This is the Pydantic model docstring."""\n\n  custom_input: str\n',
      'app/root.yaml':
        'name: root_agent\nmodel: gemini-2.5-flash\ntools:\n  - name: AgentTool\n    args:\n      agent:\n        name: tool_agent\n        description: A tool agent for testing.\n        input_schema: app.schemas.CustomInput\n',
    });
    const request = await inspect(join(dir, 'app/root.yaml'));
    expect(JSON.stringify(request.tools)).toBe(
      JSON.stringify([
        {
          name: 'tool_agent',
          description: 'A tool agent for testing.',
          parameters: {
            description: 'This is the Pydantic model docstring.',
            properties: { custom_input: { title: 'Custom Input', type: 'string' } },
            required: ['custom_input'],
            title: 'CustomInput',
            type: 'object',
          },
        },
      ]),
    );
  });
});

describe('output_schema written in the file, and its problems', () => {
  it('inspect shows the response schema in the request’s settings', async () => {
    const dir = await tmp.files({
      'agent.yaml':
        'name: cities\nmodel: gemini-2.5-flash\noutputSchema: { type: object, properties: { city: { type: string } } }\n',
    });
    const shown = await cli(['inspect', join(dir, 'agent.yaml')]);
    expect(shown.stdout).toContain(
      'SETTINGS · 2\n┌ responseSchema {"type":"object","properties":{"city":{"type":"string"}}}\n┌ responseMimeType "application/json"',
    );
  });

  it('takes a JSON Schema written in the file (agentctx’s extension)', async () => {
    const dir = await tmp.files({
      'agent.yaml':
        'name: cities\nmodel: gemini-2.5-flash\noutputSchema:\n  type: object\n  properties:\n    city: { type: string }\n  required: [city]\n',
    });
    const request = await inspect(join(dir, 'agent.yaml'));
    expect(request.config['responseSchema']).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
  });

  it('names every problem: a class that is no model, a module that is not there, a schema that is none', async () => {
    const dir = await tmp.files({
      'app/__init__.py': '',
      'app/things.py': 'from enum import Enum\n\nclass Color(Enum):\n  RED = "red"\n',
      'app/agent.yaml':
        'name: root\nmodel: gemini-2.5-flash\noutput_schema: app.things.Color\nsub_agents:\n' +
        '  - name: a\n    output_schema: app.missing.Thing\n' +
        '  - name: b\n    output_schema: { type: dict }\n' +
        '  - name: c\n    output_schema: { title: nothing }\n' +
        '  - name: d\n    output_schema: 42\n',
    });
    const result = await cli(['check', join(dir, 'app/agent.yaml')]);
    expectCliError(result, /5 problems/);
    expect(result.stderr).toContain(
      "output_schema: 'app.things.Color' cannot be read: Color is an enum; an output_schema names a pydantic model class",
    );
    expect(result.stderr).toContain("'app.missing.Thing' cannot be read: no module app.missing");
    expect(result.stderr).toContain('output_schema.type: expected a JSON Schema type');
    expect(result.stderr).toContain('is not a JSON Schema: it has no type, properties, anyOf, enum or $ref');
    expect(result.stderr).toContain(
      'expected the dotted name of a pydantic class (pkg.module.MySchema) or a JSON Schema',
    );
  });
});
