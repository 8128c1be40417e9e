import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { readEvalConfig } from '../../src/analysis/eval/eval-config.js';
import {
  evalConfigFileSchema,
  evalSetFileSchema,
  legacyEvalFileSchema,
} from '../../src/analysis/eval/eval-file-schemas.js';
import { formatEvalSet, readEvalSet } from '../../src/analysis/eval/eval-set-file.js';
import { agentctx, expectCliError, repositoryRoot } from '../support/cli.js';

// The published schemas of ADK's eval files against ADK's own fixtures and agentctx's readers: what the schema
// accepts the reader reads, and an unknown or misplaced field is refused by both.

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateSet = ajv.compile(evalSetFileSchema());
const validateLegacy = ajv.compile(legacyEvalFileSchema());
const validateConfig = ajv.compile(evalConfigFileSchema());

const FOLDERS = ['test/fixtures/adk-eval', 'examples/eval', 'examples/report-analyst/eval'];

function evalFiles(): string[] {
  return FOLDERS.map((folder) => join(repositoryRoot, folder))
    .filter((folder) => existsSync(folder))
    .flatMap((folder) =>
      readdirSync(folder)
        .filter((name) => name.endsWith('.json'))
        .map((name) => join(folder, name)),
    );
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const fixture = (name: string) => readJson(join(repositoryRoot, 'test/fixtures/adk-eval', name));
const clone = <T>(value: T): T => structuredClone(value);

// Every key in camelCase, at every level (tool arguments and state included: any key is fine there).
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase()),
      camelKeys(inner),
    ]),
  );
}

/** Whether the reader takes an eval set or config, and whether the schema does: the two must agree. */
function verdicts(kind: 'set' | 'config', value: unknown): { schema: boolean; reader: boolean } {
  const validate = kind === 'config' ? validateConfig : Array.isArray(value) ? validateLegacy : validateSet;
  let reader = true;
  try {
    if (kind === 'config') readEvalConfig(value, 'test_config.json');
    else readEvalSet(value, 'case.test.json');
  } catch {
    reader = false;
  }
  return { schema: validate(value) === true, reader };
}

describe('the schemas of ADK eval files', () => {
  it('accept every eval file of ADK’s fixtures and the examples, as the readers do', () => {
    const checked: string[] = [];
    for (const file of evalFiles()) {
      const value = readJson(file);
      const name = relative(repositoryRoot, file);
      const isConfig = file.endsWith('test_config.json');
      const validate = isConfig ? validateConfig : Array.isArray(value) ? validateLegacy : validateSet;
      expect(validate(value), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(verdicts(isConfig ? 'config' : 'set', value), name).toEqual({ schema: true, reader: true });
      checked.push(name);
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'test/fixtures/adk-eval/simple_test.test.json',
        'test/fixtures/adk-eval/simple_test2.test.json',
        'test/fixtures/adk-eval/test_config.json',
      ]),
    );
  });

  it('accept the files in camelCase, what agentctx writes, and a $schema key naming the schema', () => {
    const set = fixture('simple_test.test.json');
    expect(verdicts('set', camelKeys(set))).toEqual({ schema: true, reader: true });
    const written: unknown = JSON.parse(formatEvalSet(readEvalSet(set, 'simple_test.test.json')));
    expect(validateSet(written), ajv.errorsText(validateSet.errors)).toBe(true);
    const converted: unknown = JSON.parse(formatEvalSet(readEvalSet(fixture('simple_test2.test.json'), 'a.test.json')));
    expect(validateSet(converted), ajv.errorsText(validateSet.errors)).toBe(true);
    const named = { $schema: '../../assets/schema/eval-set.schema.json', ...(set as object) };
    expect(verdicts('set', named)).toEqual({ schema: true, reader: true });
    const config = {
      $schema: 'eval-config.schema.json',
      criteria: {
        tool_trajectory_avg_score: { threshold: 1, match_type: 'in order' },
        final_response_match_v2: { threshold: 0.5, judgeModelOptions: { judge_model: 'm', num_samples: 3 } },
      },
      customMetrics: { mine: { code_config: { name: 'pkg.metric' } } },
      user_simulator_config: { model: 'gemini-2.5-flash' },
    };
    expect(verdicts('config', config)).toEqual({ schema: true, reader: true });
    expect(verdicts('config', camelKeys(config))).toEqual({ schema: true, reader: true });
  });

  it('refuse an unknown or misplaced field, as the readers do', () => {
    const set = fixture('simple_test.test.json') as { eval_cases: Record<string, unknown>[] };
    const first = (value: typeof set) => value.eval_cases[0] as { conversation: Record<string, unknown>[] };
    const invocation = (value: typeof set) => first(value).conversation[0] as Record<string, unknown>;
    const broken: [string, (value: typeof set) => void][] = [
      ['an unknown top-level field', (value) => Object.assign(value, { descripton: 'x' })],
      ['a field in both spellings', (value) => Object.assign(value, { evalSetId: 'x' })],
      ['an unknown invocation field', (value) => Object.assign(invocation(value), { expected_response: 'x' })],
      ['a null user message', (value) => Object.assign(invocation(value), { user_content: null })],
      [
        'an unknown intermediate data field',
        (value) => Object.assign(invocation(value)['intermediate_data'] as object, { tool_calls: [] }),
      ],
      [
        'a genai field agentctx does not read, set',
        (value) => {
          const content = invocation(value)['user_content'] as { parts: Record<string, unknown>[] };
          Object.assign(content.parts[0] as object, { video_metadata: { fps: 1 } });
        },
      ],
      [
        'a part of two kinds',
        (value) => {
          const content = invocation(value)['user_content'] as { parts: Record<string, unknown>[] };
          Object.assign(content.parts[0] as object, { functionCall: { name: 'f' } });
        },
      ],
      [
        'a conversation and a scenario',
        (value) =>
          Object.assign(first(value), { conversation_scenario: { starting_prompt: 'a', conversation_plan: 'b' } }),
      ],
      ['no conversation', (value) => Object.assign(first(value), { conversation: null })],
      [
        'a session input without its user',
        (value) => Object.assign(first(value), { session_input: { app_name: 'a' } }),
      ],
    ];
    for (const [what, change] of broken) {
      const value = clone(set);
      change(value);
      expect(verdicts('set', value), what).toEqual({ schema: false, reader: false });
    }
    // EvalCase and SessionInput keep other keys, as ADK's models do (extra="allow").
    const extra = clone(set);
    Object.assign(first(extra), { notes: 'kept', session_input: { app_name: 'a', user_id: 'u', locale: 'en' } });
    expect(verdicts('set', extra)).toEqual({ schema: true, reader: true });

    const legacy = fixture('simple_test2.test.json') as Record<string, unknown>[];
    const entry = (value: typeof legacy) => value[0] as Record<string, unknown>;
    const tool = (value: typeof legacy) =>
      (entry(value)['expected_tool_use'] as Record<string, unknown>[])[0] as object;
    for (const [what, change] of [
      ['an unknown entry field', (value) => Object.assign(entry(value), { refrence: 'x' })],
      ['an unknown tool use field', (value) => Object.assign(tool(value), { tool_args: {} })],
      ['a case field among entries', (value) => value.push({ name: 'n', data: [] })],
    ] as [string, (value: typeof legacy) => void][]) {
      const value = clone(legacy);
      change(value);
      expect(verdicts('set', value), what).toEqual({ schema: false, reader: false });
    }
    const mocked = clone(legacy);
    Object.assign(tool(mocked), { mock_tool_output: 'ignored' });
    expect(verdicts('set', mocked)).toEqual({ schema: true, reader: true });
    const cases = [{ name: 'c', data: clone(legacy), initial_session: { app_name: 'a', user_id: 'u', state: {} } }];
    expect(verdicts('set', cases)).toEqual({ schema: true, reader: true });
    expect(verdicts('set', [{ ...cases[0], initial_sesion: {} }])).toEqual({ schema: false, reader: false });

    for (const config of [
      { criterias: { response_match_score: 0.8 } },
      { criteria: { response_match_score: { match_type: 'EXACT' } } },
      { criteria: { response_match_score: '0.8' } },
      { criteria: {}, custom_metrics: { m: { code_config: { name: 'f', argz: [] } } } },
      { criteria: {}, user_simulator_config: { type: 'scripted' } },
    ])
      expect(verdicts('config', config), JSON.stringify(config)).toEqual({ schema: false, reader: false });
  });

  it('are printed by agentctx schema evalset|eval-test|eval-config', async () => {
    const printed = await agentctx('schema', 'evalset');
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(evalSetFileSchema());
    expect(JSON.parse((await agentctx('schema', 'eval-test')).stdout)).toEqual(legacyEvalFileSchema());
    expect(JSON.parse((await agentctx('schema', 'eval-config')).stdout)).toEqual(evalConfigFileSchema());
    expectCliError(
      await agentctx('schema', 'evalsets'),
      /agent, case, script, prices, evalset, eval-test or eval-config/,
    );
  });

  it('describe every field', () => {
    const undescribed: string[] = [];
    const walk = (schema: unknown, at: string) => {
      if (typeof schema !== 'object' || schema === null) return;
      const record = schema as Record<string, unknown>;
      for (const [key, property] of Object.entries((record['properties'] ?? {}) as Record<string, unknown>)) {
        if (typeof (property as { description?: unknown }).description !== 'string') undescribed.push(`${at}.${key}`);
        walk(property, `${at}.${key}`);
      }
      for (const [key, definition] of Object.entries((record['$defs'] ?? {}) as Record<string, unknown>))
        walk(definition, `${at}.$defs.${key}`);
      // anyOf holds a value's alternatives (a threshold or a criterion); allOf and oneOf only rules on given fields.
      for (const [index, branch] of ((record['anyOf'] ?? []) as unknown[]).entries())
        walk(branch, `${at}.anyOf[${index}]`);
    };
    walk(evalSetFileSchema(), 'evalset');
    walk(legacyEvalFileSchema(), 'eval-test');
    walk(evalConfigFileSchema(), 'eval-config');
    expect(undescribed).toEqual([]);
  });
});
