import type { JsonSchema } from '../../contracts/request.js';

// A JSON Schema checker for the keywords structured output uses (draft 2020-12 and 07 spellings): types, enum and
// const, objects, arrays, unions, numbers and strings, and `$ref` into `$defs`/`definitions`. It lists every problem,
// each at its path (`$.items[2].name`), so a model told them can fix its answer in one go. `format` is not checked
// (providers treat it as a hint), nor are remote references; an unknown keyword is ignored, as the standard says.

/** Every way `value` does not match `schema`, at most `limit` of them; empty when it matches. `$ref`s resolve in `root`. */
export function checkJsonSchema(schema: JsonSchema, value: unknown, limit = 20, root: JsonSchema = schema): string[] {
  const problems: string[] = [];
  check(schema, value, '$', { root, problems, limit, depth: 0 });
  return problems.slice(0, limit);
}

type Walk = { root: JsonSchema; problems: string[]; limit: number; depth: number };

function check(schema: unknown, value: unknown, path: string, walk: Walk): void {
  if (walk.problems.length >= walk.limit) return;
  if (schema === true || schema === undefined) return;
  if (schema === false) return void walk.problems.push(`${path}: no value is allowed here`);
  if (typeof schema !== 'object' || schema === null) return;
  const s = schema as Record<string, unknown>;
  if (typeof s['$ref'] === 'string') {
    // Deep recursion only comes from a self-referencing schema with a value as deep: stop well before the stack does.
    if (walk.depth > 200) return void walk.problems.push(`${path}: nested too deeply to check`);
    const target = resolve(walk.root, s['$ref']);
    if (target === undefined) return void walk.problems.push(`${path}: the schema's $ref ${s['$ref']} names nothing`);
    check(target, value, path, { ...walk, depth: walk.depth + 1 });
  }
  if (s['type'] !== undefined && !matchesType(s['type'], value))
    return void walk.problems.push(`${path}: expected ${typeText(s['type'])}, got ${describe(value)}`);
  if (Array.isArray(s['enum']) && !s['enum'].some((option) => sameJson(option, value)))
    walk.problems.push(
      `${path}: expected one of ${s['enum'].map((option) => JSON.stringify(option)).join(', ')}, got ${JSON.stringify(value)}`,
    );
  if ('const' in s && !sameJson(s['const'], value))
    walk.problems.push(`${path}: expected ${JSON.stringify(s['const'])}, got ${JSON.stringify(value)}`);
  checkCombinations(s, value, path, walk);
  if (typeof value === 'number') checkNumber(s, value, path, walk);
  if (typeof value === 'string') checkString(s, value, path, walk);
  if (Array.isArray(value)) checkArray(s, value, path, walk);
  else if (typeof value === 'object' && value !== null) checkObject(s, value as Record<string, unknown>, path, walk);
}

function checkCombinations(s: Record<string, unknown>, value: unknown, path: string, walk: Walk): void {
  if (Array.isArray(s['allOf'])) for (const part of s['allOf']) check(part, value, path, walk);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (!Array.isArray(options)) continue;
    const results = options.map((option) => {
      const inner: string[] = [];
      check(option, value, path, { ...walk, problems: inner, limit: 5 });
      return inner;
    });
    const matching = results.filter((inner) => inner.length === 0).length;
    if (matching === 0) {
      const closest = results.reduce((best, inner) => (inner.length < best.length ? inner : best));
      walk.problems.push(
        `${path}: matches none of the ${options.length} choices${closest.length > 0 ? ` (closest: ${closest.join('; ')})` : ''}`,
      );
    } else if (key === 'oneOf' && matching > 1)
      walk.problems.push(`${path}: matches ${matching} of the choices, where exactly one must match`);
  }
  if (s['not'] !== undefined) {
    const inner: string[] = [];
    check(s['not'], value, path, { ...walk, problems: inner, limit: 1 });
    if (inner.length === 0) walk.problems.push(`${path}: matches a schema it must not match`);
  }
}

function checkNumber(s: Record<string, unknown>, value: number, path: string, walk: Walk): void {
  const bound = (key: string, fails: (limit: number) => boolean, words: string) => {
    const limit = s[key];
    if (typeof limit === 'number' && fails(limit)) walk.problems.push(`${path}: ${value} is ${words} ${limit}`);
  };
  bound('minimum', (limit) => value < limit, 'less than');
  bound('maximum', (limit) => value > limit, 'more than');
  bound('exclusiveMinimum', (limit) => value <= limit, 'not more than');
  bound('exclusiveMaximum', (limit) => value >= limit, 'not less than');
  const step = s['multipleOf'];
  if (typeof step === 'number' && step > 0 && !Number.isInteger(Number((value / step).toPrecision(12))))
    walk.problems.push(`${path}: ${value} is not a multiple of ${step}`);
}

function checkString(s: Record<string, unknown>, value: string, path: string, walk: Walk): void {
  const length = [...value].length;
  if (typeof s['minLength'] === 'number' && length < s['minLength'])
    walk.problems.push(`${path}: shorter than ${s['minLength']} characters`);
  if (typeof s['maxLength'] === 'number' && length > s['maxLength'])
    walk.problems.push(`${path}: longer than ${s['maxLength']} characters`);
  if (typeof s['pattern'] === 'string') {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(s['pattern'], 'u');
    } catch {
      walk.problems.push(
        `${path}: the schema's pattern ${JSON.stringify(s['pattern'])} is not a valid regular expression`,
      );
    }
    if (pattern !== undefined && !pattern.test(value))
      walk.problems.push(`${path}: does not match the pattern ${JSON.stringify(s['pattern'])}`);
  }
}

function checkArray(s: Record<string, unknown>, value: unknown[], path: string, walk: Walk): void {
  if (typeof s['minItems'] === 'number' && value.length < s['minItems'])
    walk.problems.push(`${path}: has ${value.length} items, fewer than ${s['minItems']}`);
  if (typeof s['maxItems'] === 'number' && value.length > s['maxItems'])
    walk.problems.push(`${path}: has ${value.length} items, more than ${s['maxItems']}`);
  const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'] : [];
  value.forEach((item, index) => {
    const itemSchema = index < prefix.length ? prefix[index] : s['items'];
    check(itemSchema, item, `${path}[${index}]`, walk);
  });
  if (s['uniqueItems'] === true) {
    const seen = new Set(value.map((item) => canonical(item)));
    if (seen.size < value.length) walk.problems.push(`${path}: has repeated items`);
  }
}

function checkObject(s: Record<string, unknown>, value: Record<string, unknown>, path: string, walk: Walk): void {
  const properties = (isRecord(s['properties']) ? s['properties'] : {}) as Record<string, unknown>;
  if (Array.isArray(s['required']))
    for (const name of s['required'])
      if (typeof name === 'string' && !Object.hasOwn(value, name))
        walk.problems.push(`${path}: the required property '${name}' is missing`);
  const count = Object.keys(value).length;
  if (typeof s['minProperties'] === 'number' && count < s['minProperties'])
    walk.problems.push(`${path}: has ${count} properties, fewer than ${s['minProperties']}`);
  if (typeof s['maxProperties'] === 'number' && count > s['maxProperties'])
    walk.problems.push(`${path}: has ${count} properties, more than ${s['maxProperties']}`);
  for (const [name, item] of Object.entries(value)) {
    const at = /^[A-Za-z_$][\w$]*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
    if (Object.hasOwn(properties, name)) check(properties[name], item, at, walk);
    else if (s['additionalProperties'] === false) walk.problems.push(`${path}: the property '${name}' is not allowed`);
    else check(s['additionalProperties'], item, at, walk);
  }
}

function resolve(root: JsonSchema, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isRecord(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

function matchesType(type: unknown, value: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((name) => {
    switch (name) {
      case 'null':
        return value === null;
      case 'boolean':
        return typeof value === 'boolean';
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value);
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'string':
        return typeof value === 'string';
      case 'array':
        return Array.isArray(value);
      case 'object':
        return isRecord(value);
      default:
        return true;
    }
  });
}

function typeText(type: unknown): string {
  const types = (Array.isArray(type) ? type : [type]).map((name) =>
    name === 'integer' ? 'an integer' : `${article(String(name))} ${String(name)}`,
  );
  return types.join(' or ');
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? `the number ${value}` : `the number ${value}`;
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${article(typeof value)} ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// JSON equality: objects equal whatever their key order.
function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}
