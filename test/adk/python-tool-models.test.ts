import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declarePythonTools } from '../../src/cli/python-tools.js';
import type { PythonToolDeclaration } from '../../src/presets/python-tool.js';

// Python function tools whose parameters are the module's own pydantic models, dataclasses and enums, declared as
// ADK 2.5.0 declares them: pydantic's JSON Schema of the signature, every class gathered under `$defs`. The expected
// schemas are what pydantic 2.13.4 itself printed for these modules (create_model(f"{name}Params", …)
// .model_json_schema(), as ADK builds them); agentctx reads the source with `ast` and runs none of it.

const MODELS =
  'import json, inspect, enum, dataclasses\nfrom typing import Optional\nfrom pydantic import BaseModel, Field, create_model\n\nclass Color(str, enum.Enum):\n  RED = "red"\n  GREEN = "green"\n\nclass Level(enum.IntEnum):\n  LOW = 1\n  HIGH = 2\n\nclass Address(BaseModel):\n  """Where someone lives."""\n  street: str\n  zip_code: Optional[str] = None\n\nclass Person(BaseModel):\n  name: str = Field(description="The full name")\n  age: int = 0\n  home: Address\n  favourite: Color = Color.RED\n\n@dataclasses.dataclass\nclass Point:\n  x: int\n  y: int = 0\n\ndef f(person: Person, color: Color = Color.GREEN, level: Optional[Level] = None, points: list[Point] = [], tags: dict[str, Address] = {}): ...\n\n';
const MORE =
  'import json, inspect, enum, dataclasses\nfrom typing import Optional, Union, Literal\nfrom pydantic import BaseModel, Field, create_model\nclass A(BaseModel):\n  a: int\nclass B(BaseModel):\n  """B doc."""\n  b: list[A] = Field(default_factory=list, description="Bs")\n  c: Optional[A] = None\n  d: A | None = None\n  e: Union[A, "B", None] = None\n  f: Literal["x", "y"] = "x"\n  g: int = Field(5, title="Gee")\n@dataclasses.dataclass\nclass D:\n  """Doc of D."""\n  x: int\nclass E(enum.Enum):\n  """Doc of E."""\n  ONE = "one"\n  TWO = 2\ndef f(u: Union[A, B], o: Optional[D], e: E = E.TWO): ...\n';

const PYDANTIC_MODELS = {
  $defs: {
    Address: {
      description: 'Where someone lives.',
      properties: {
        street: { title: 'Street', type: 'string' },
        zip_code: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Zip Code' },
      },
      required: ['street'],
      title: 'Address',
      type: 'object',
    },
    Color: { enum: ['red', 'green'], title: 'Color', type: 'string' },
    Level: { enum: [1, 2], title: 'Level', type: 'integer' },
    Person: {
      properties: {
        name: { description: 'The full name', title: 'Name', type: 'string' },
        age: { default: 0, title: 'Age', type: 'integer' },
        home: { $ref: '#/$defs/Address' },
        favourite: { $ref: '#/$defs/Color', default: 'red' },
      },
      required: ['name', 'home'],
      title: 'Person',
      type: 'object',
    },
    Point: {
      properties: { x: { title: 'X', type: 'integer' }, y: { default: 0, title: 'Y', type: 'integer' } },
      required: ['x'],
      title: 'Point',
      type: 'object',
    },
  },
  properties: {
    person: { $ref: '#/$defs/Person' },
    color: { $ref: '#/$defs/Color', default: 'green' },
    level: { anyOf: [{ $ref: '#/$defs/Level' }, { type: 'null' }], default: null },
    points: { default: [], items: { $ref: '#/$defs/Point' }, title: 'Points', type: 'array' },
    tags: { additionalProperties: { $ref: '#/$defs/Address' }, default: {}, title: 'Tags', type: 'object' },
  },
  required: ['person'],
  title: 'fParams',
  type: 'object',
};
const PYDANTIC_MORE = {
  $defs: {
    A: { properties: { a: { title: 'A', type: 'integer' } }, required: ['a'], title: 'A', type: 'object' },
    B: {
      description: 'B doc.',
      properties: {
        b: { description: 'Bs', items: { $ref: '#/$defs/A' }, title: 'B', type: 'array' },
        c: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }], default: null },
        d: { anyOf: [{ $ref: '#/$defs/A' }, { type: 'null' }], default: null },
        e: { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }, { type: 'null' }], default: null, title: 'E' },
        f: { default: 'x', enum: ['x', 'y'], title: 'F', type: 'string' },
        g: { default: 5, title: 'Gee', type: 'integer' },
      },
      title: 'B',
      type: 'object',
    },
    D: {
      description: 'Doc of D.',
      properties: { x: { title: 'X', type: 'integer' } },
      required: ['x'],
      title: 'D',
      type: 'object',
    },
    E: { description: 'Doc of E.', enum: ['one', 2], title: 'E' },
  },
  properties: {
    u: { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }], title: 'U' },
    o: { anyOf: [{ $ref: '#/$defs/D' }, { type: 'null' }] },
    e: { $ref: '#/$defs/E', default: 2 },
  },
  required: ['u', 'o'],
  title: 'fParams',
  type: 'object',
};

let dir = '';
let declared: Record<string, PythonToolDeclaration> = {};
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-python-models-'));
  await mkdir(join(dir, 'shop'));
  await writeFile(join(dir, 'shop', '__init__.py'), '');
  // Never run: a module that raises at its top still declares.
  await writeFile(join(dir, 'shop', 'models.py'), `${MODELS}\nraise RuntimeError("never run")\n`);
  await writeFile(join(dir, 'shop', 'more.py'), `${MORE}\nraise RuntimeError("never run")\n`);
  await writeFile(
    join(dir, 'shop', 'broken.py'),
    'import enum\nclass Auto(enum.Enum):\n  A = enum.auto()\ndef pick(choice: Auto): ...\n',
  );
  declared = await declarePythonTools(process.env, dir)(
    ['shop.models.f', 'shop.more.f', 'shop.broken.pick'],
    join('shop', 'agent.yaml'),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('Python tools with pydantic models, dataclasses and enums', () => {
  it('declares models, nested models, enums (their defaults by value), dataclasses and optional ones as pydantic does', () => {
    const got = declared['shop.models.f'] as { parameters?: unknown };
    expect(JSON.stringify(got.parameters)).toBe(JSON.stringify(PYDANTIC_MODELS));
  });

  it('takes docstrings, Field(description, title, default_factory), unions of models and enums of mixed values as pydantic does', () => {
    const got = declared['shop.more.f'] as { parameters?: unknown };
    expect(JSON.stringify(got.parameters)).toBe(JSON.stringify(PYDANTIC_MORE));
  });

  it('says which enum member it cannot read without running the module', () => {
    expect(declared['shop.broken.pick']).toEqual({
      error: 'pick: the enum Auto (a member is not a literal: enum.auto())',
    });
  });
});
