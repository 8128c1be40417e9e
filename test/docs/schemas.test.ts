import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  evalConfigFileSchema,
  evalSetFileSchema,
  legacyEvalFileSchema,
} from '../../src/analysis/eval/eval-file-schemas.js';
import { agentFromConfig } from '../../src/presets/agent-files.js';
import { isAgentDocument, isCaseDocument } from '../../src/presets/case-file.js';
import { parseScript } from '../../src/models/scripted/parse-script.js';
import { scriptFileSchema } from '../../src/models/scripted/script-schema.js';
import { agentFileSchema, caseFileSchema } from '../../src/presets/file-schemas.js';
import { agentctx, repositoryRoot, spawnAgentctx } from '../support/cli.js';
import { renderAgentFileDoc } from './agent-file-doc.js';
import { stringifyYaml } from './yaml.js';

// The published schemas: current with the field tables, accepting every example file, agreeing with the readers
// on which fields exist, and their own example runs through every command that takes an agent file.

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validateAgent = ajv.compile(agentFileSchema());
const validateCase = ajv.compile(caseFileSchema());
const validateScript = ajv.compile(scriptFileSchema());
const children: ChildProcessWithoutNullStreams[] = [];
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-schema-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

function exampleFiles(folder = join(repositoryRoot, 'examples')): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return exampleFiles(path);
    // ADK's eval files (eval sets, legacy test lists, test_config.json) have schemas of their own.
    if (/\.evalset\.json$|\.test\.json$|^test_config\.json$/.test(entry.name)) return [];
    return /\.(ya?ml|json)$/.test(entry.name) ? [path] : [];
  });
}

describe('agent-file and case-file schemas', () => {
  it('are what the field tables give (npm run schema:write writes them), and so is docs/agent-file.md', () => {
    const read = (path: string) => readFileSync(join(repositoryRoot, path), 'utf8');
    expect(JSON.parse(read('assets/schema/agent-file.schema.json'))).toEqual(agentFileSchema());
    expect(JSON.parse(read('assets/schema/case-file.schema.json'))).toEqual(caseFileSchema());
    expect(JSON.parse(read('assets/schema/script.schema.json'))).toEqual(scriptFileSchema());
    expect(JSON.parse(read('assets/schema/eval-set.schema.json'))).toEqual(evalSetFileSchema());
    expect(JSON.parse(read('assets/schema/eval-test.schema.json'))).toEqual(legacyEvalFileSchema());
    expect(JSON.parse(read('assets/schema/eval-config.schema.json'))).toEqual(evalConfigFileSchema());
    expect(read('docs/agent-file.md')).toBe(renderAgentFileDoc(agentFileSchema(), caseFileSchema()));
  });

  it('accept every example agent file and case file, each of which names its schema for editors', () => {
    const checked: string[] = [];
    for (const file of exampleFiles()) {
      const text = readFileSync(file, 'utf8');
      const value: unknown = parse(text);
      const name = relative(repositoryRoot, file);
      if (isAgentDocument(value)) {
        expect(validateAgent(value), `${name}: ${ajv.errorsText(validateAgent.errors)}`).toBe(true);
        expect(text.split('\n')[0]).toMatch(
          /^# yaml-language-server: \$schema=(\.\.\/)+assets\/schema\/agent-file\.schema\.json$/,
        );
      } else if (isCaseDocument(value)) {
        expect(validateCase(value), `${name}: ${ajv.errorsText(validateCase.errors)}`).toBe(true);
        expect(text.split('\n')[0]).toMatch(
          /^# yaml-language-server: \$schema=(\.\.\/)+assets\/schema\/case-file\.schema\.json$/,
        );
      } else continue;
      checked.push(name);
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'examples/draft-and-review/pipeline.yaml',
        'examples/docs-check/agent.yaml',
        'examples/coordinator.yaml',
        'examples/compaction/long-chat.yaml',
      ]),
    );
  });

  it('accept every scripted-model script the examples and tests use, as the parser does, and refuse what it refuses', () => {
    const scripts = [
      join(repositoryRoot, 'examples/draft-and-review/script.yaml'),
      ...readdirSync(join(repositoryRoot, 'test/fixtures'))
        .filter((name) => name.endsWith('-script.yaml'))
        .map((name) => join(repositoryRoot, 'test/fixtures', name)),
    ];
    expect(scripts.length).toBeGreaterThan(2);
    for (const file of scripts) {
      const value: unknown = parse(readFileSync(file, 'utf8'));
      expect(validateScript(value), `${relative(repositoryRoot, file)}: ${ajv.errorsText(validateScript.errors)}`).toBe(
        true,
      );
      expect(() => parseScript(value, file)).not.toThrow();
    }
    expect(readFileSync(scripts[0] as string, 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../../assets/schema/script.schema.json',
    );
    const mistyped = { rules: [{ when: { agnet: 'a' }, respond: { text: 'x' } }] };
    expect(validateScript(mistyped)).toBe(false);
    expect(() => parseScript(mistyped, 's.yaml')).toThrow(/did you mean 'agent'/);
    const full = {
      rules: [
        {
          when: { agentCall: 2, toolResultContains: 'x', state: { a: 1 } },
          respond: { functionCalls: [{ name: 'f', args: {} }], usage: { promptTokens: 3 } },
          times: 1,
        },
      ],
      fallback: { error: { code: 'E', message: 'no' } },
    };
    expect(validateScript(full)).toBe(true);
    expect(() => parseScript(full, 's.yaml')).not.toThrow();
  });

  it('name the same fields as the reader: what one refuses, the other refuses too', async () => {
    // The reader lists the fields it allows when it meets an unknown one; the schema's are the same (ADK spellings aside).
    const refusal = await agentFromConfig({ name: 'a', nonsense: 1 }, { filename: 'a.yaml' }).catch(
      (error: Error) => error.message,
    );
    const allowed =
      /allowed: ([^)]+?)(?:\)|$)/
        .exec(String(refusal))?.[1]
        ?.split(', ')
        .map((key) => key.trim()) ?? [];
    const schemas = (
      agentFileSchema() as { $defs: { agent: { properties: Record<string, { deprecated?: boolean }> } } }
    ).$defs.agent.properties;
    // Old spellings (deprecated: true) are read by both, and offered by neither.
    const properties = Object.keys(schemas).filter((key) => schemas[key]?.deprecated !== true);
    const camel = properties.filter(
      (key) => !key.includes('_') && key !== 'generateContentConfig' && key !== 'maxIterations',
    );
    expect(validateAgent({ name: 'a', memory: [{ file: 'MEMORY.md' }] })).toBe(true);
    expect([...allowed].sort()).toEqual([...camel].sort());
    expect(validateAgent({ name: 'a', nonsense: 1 })).toBe(false);
    expect(validateAgent({ name: 'a', sub_agents: [{ config_path: 'b.yaml' }], agent_class: 'LlmAgent' })).toBe(true);
    expect(validateCase({ agent: 'agent.yaml', state: {}, evnts: [] })).toBe(false);
  });

  it('give an example that runs through every command that takes an agent file', async () => {
    const example = (agentFileSchema() as { examples: unknown[] }).examples[0];
    expect(validateAgent(example)).toBe(true);
    const file = join(dir, 'help-desk.yaml');
    await writeFile(
      file,
      `# yaml-language-server: $schema=${join(repositoryRoot, 'assets/schema/agent-file.schema.json')}\n${stringifyYaml(example)}`,
    );
    const script = join(dir, 'script.yaml');
    await writeFile(
      script,
      'rules:\n  - respond: { text: Happy to help., usage: { promptTokens: 120, outputTokens: 4 } }\n',
    );
    const store = join(dir, 'help-desk.db');
    const model = `scripted:${script}`;

    const ran = await agentctx(
      'run',
      file,
      '--model',
      model,
      '--store',
      store,
      '--session',
      's1',
      '--message',
      'Where is my invoice?',
    );
    expect({ code: ran.code, stdout: ran.stdout }).toEqual({ code: 0, stdout: '[help_desk] Happy to help.\n' });
    expect((await agentctx('inspect', file)).code).toBe(0);
    expect((await agentctx('inspect', file, '--session', 's1', '--store', store, '--call', '1')).code).toBe(0);
    expect((await agentctx('inspect', file, '--agent', 'billing_agent', '--json')).stdout).toContain('find_invoice');
    expect((await agentctx('diff', file, file)).code).toBe(0);
    expect(
      (await agentctx('diff', file, '--session', 's1', '--session', 's1', '--call', '1', '--store', store)).code,
    ).toBe(0);
    expect((await agentctx('check', file)).code).toBe(0);
    expect((await agentctx('compact', file, '--dry-run', '--interval', '2', '--overlap', '0')).code).toBe(0);
    expect(
      (
        await agentctx(
          'compact',
          file,
          '--session',
          's1',
          '--dry-run',
          '--interval',
          '2',
          '--overlap',
          '0',
          '--store',
          store,
        )
      ).code,
    ).toBe(0);
    expect((await agentctx('tokens', file, '--session', 's1', '--store', store)).code).toBe(0);

    const server = spawnAgentctx(['serve', file, '--model', model, '--store', store, '--port', '0']);
    children.push(server);
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await expect.poll(() => /listening on (http:\S+) \(app help_desk\)/.test(out), { timeout: 15_000 }).toBe(true);
    const url = /listening on (http:\S+)/.exec(out)?.[1] ?? '';
    expect((await fetch(`${url}/apps/help_desk/users/user/sessions/s1/calls/1`)).status).toBe(200);
  });
});
