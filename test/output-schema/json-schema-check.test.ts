import { describe, expect, it } from 'vitest';
import { checkJsonSchema } from '../../src/engine/util/json-schema-check.js';

// The JSON Schema checker structured output uses: every problem, each at its path.

describe('checkJsonSchema', () => {
  it('accepts what matches and lists each mismatch at its path', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2 },
        tags: { type: 'array', items: { enum: ['a', 'b'] }, maxItems: 2, uniqueItems: true },
        size: { type: ['integer', 'null'], minimum: 1, multipleOf: 2 },
        'odd key': { const: true },
      },
      required: ['name', 'size'],
      additionalProperties: false,
    };
    expect(checkJsonSchema(schema, { name: 'ab', tags: ['a'], size: null })).toEqual([]);
    expect(checkJsonSchema(schema, { name: 'a', tags: ['a', 'c', 'a'], size: 3, 'odd key': false, more: 1 })).toEqual([
      '$.name: shorter than 2 characters',
      '$.tags: has 3 items, more than 2',
      '$.tags[1]: expected one of "a", "b", got "c"',
      '$.tags: has repeated items',
      '$.size: 3 is not a multiple of 2',
      '$["odd key"]: expected true, got false',
      "$: the property 'more' is not allowed",
    ]);
    expect(checkJsonSchema(schema, [])).toEqual(['$: expected an object, got an array']);
  });

  it('follows $ref into $defs (recursive ones too) and explains unions', () => {
    const schema = {
      $defs: {
        Node: {
          type: 'object',
          properties: { next: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] }, v: { type: 'number' } },
          required: ['v'],
        },
      },
      $ref: '#/$defs/Node',
    };
    expect(checkJsonSchema(schema, { v: 1, next: { v: 2, next: null } })).toEqual([]);
    expect(checkJsonSchema(schema, { v: 1, next: { next: null } })).toEqual([
      "$.next: matches none of the 2 choices (closest: $.next: the required property 'v' is missing)",
    ]);
    expect(checkJsonSchema({ $ref: '#/$defs/Missing' }, 1)).toEqual([
      "$: the schema's $ref #/$defs/Missing names nothing",
    ]);
  });

  it('handles oneOf, allOf, not, prefixItems and a bad pattern', () => {
    expect(checkJsonSchema({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1)).toEqual([
      '$: matches 2 of the choices, where exactly one must match',
    ]);
    expect(checkJsonSchema({ allOf: [{ minimum: 2 }, { maximum: 0 }] }, 1)).toEqual([
      '$: 1 is less than 2',
      '$: 1 is more than 0',
    ]);
    expect(checkJsonSchema({ not: { type: 'string' } }, 'x')).toEqual(['$: matches a schema it must not match']);
    expect(checkJsonSchema({ prefixItems: [{ type: 'string' }], items: false }, ['a', 1])).toEqual([
      '$[1]: no value is allowed here',
    ]);
    expect(checkJsonSchema({ type: 'string', pattern: '(' }, 'x')[0]).toMatch(/is not a valid regular expression/);
    expect(checkJsonSchema({ type: 'string', pattern: '^\\d+$' }, '12a')).toEqual([
      '$: does not match the pattern "^\\\\d+$"',
    ]);
  });

  it('stops at its limit', () => {
    const schema = { type: 'array', items: { type: 'string' } };
    expect(
      checkJsonSchema(
        schema,
        Array.from({ length: 50 }, (_, index) => index),
      ),
    ).toHaveLength(20);
  });
});
