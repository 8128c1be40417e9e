import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The shape of src/ (docs/architecture.md): contracts (types only, and the error classes) ← engine ← analysis (cache
// and cost) and features ← presets ← the adapters around them (models, stores, server, web, workspace, testing) ← the
// CLI. Inside the engine, its folders have one order too (ENGINE_ORDER). This test reads the import lines of every
// source file and fails when one points the wrong way.

const src = new URL('../src', import.meta.url).pathname;

type SourceFile = {
  path: string;
  name: string;
  layer: string;
  text: string;
  imports: { specifier: string; typeOnly: boolean }[];
  lines: number;
};

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? walk(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const IMPORT = /(?:^|\n)\s*(import|export)\s(type\s)?[^'";]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

const files: SourceFile[] = walk(src).map((path) => {
  const text = readFileSync(path, 'utf8');
  const imports = [...text.matchAll(IMPORT)].map((match) => ({
    specifier: match[3] ?? match[4] ?? '',
    typeOnly: match[2] !== undefined,
  }));
  return { path, name: relative(src, path), layer: layerOf(path), text, imports, lines: text.split('\n').length };
});

function layerOf(path: string): string {
  const parts = relative(src, path).split('/');
  if (parts.length === 1) return parts[0] === 'unstable.ts' ? 'unstable' : 'entry';
  if (parts[0] === 'contracts') return parts[1] === 'errors' ? 'contracts/errors' : 'contracts';
  if (parts[0] === 'stores' || parts[0] === 'models') return `${parts[0]}/${parts[1] ?? ''}`;
  return parts[0] ?? '';
}

const CONTRACTS = ['contracts', 'contracts/errors'];
const CORE = [...CONTRACTS, 'engine'];
const ALL_CORE = [...CORE, 'analysis', 'features', 'presets'];

// Which layers each layer may import, and which packages (node: builtins are listed explicitly).
const RULES: Record<string, { layers: string[]; packages: string[] }> = {
  // Contracts: types only (and the error classes), importing nothing but other contracts.
  contracts: { layers: CONTRACTS, packages: [] },
  'contracts/errors': { layers: ['contracts/errors'], packages: [] },
  // The engine: the mechanism (assembly, runner, stores in memory, compaction planning), over the contracts only.
  engine: { layers: CORE, packages: ['yaml', 'gpt-tokenizer/encoding/o200k_base'] },
  // Analysis of what was recorded: why a prompt cache missed (cache/), what calls cost (cost/, with the price tables).
  // Above the engine, which holds no prices: the preset gives the runner its pricer.
  analysis: { layers: [...CORE, 'analysis'], packages: [] },
  // Features: one folder each, built on the engine; they may use each other, without cycles (checked below).
  features: { layers: [...CORE, 'features'], packages: [] },
  // Presets: features put together (the default pipeline, createRunner's defaults, the agent-file reader).
  presets: { layers: [...ALL_CORE, 'telemetry'], packages: [] },
  'models/shared': { layers: [...CONTRACTS, 'models/shared'], packages: [] },
  'models/anthropic': { layers: [...CORE, 'models/shared', 'models/anthropic'], packages: ['@anthropic-ai/sdk'] },
  'models/gemini': { layers: [...CORE, 'models/shared', 'models/gemini'], packages: ['@google/genai', 'node:crypto'] },
  'models/openai': { layers: [...CORE, 'models/shared', 'models/openai'], packages: ['openai', 'node:crypto'] },
  // The AI SDK bridge: the specification's types only (the user brings a provider package); node:async_hooks finds the
  // call a request of a provider's shared fetch belongs to (recording-fetch.ts); the packages of the providers that
  // have model strings, loaded when one is used (named-providers.ts).
  'models/ai-sdk': {
    layers: [...CORE, 'models/shared', 'models/ai-sdk'],
    packages: ['@ai-sdk/provider', 'node:async_hooks', '@ai-sdk/mistral', '@ai-sdk/groq', '@ai-sdk/deepseek'],
  },
  // node:vm runs a script's regular expressions with a time limit (bounded-match.ts).
  'models/scripted': { layers: [...CORE, 'models/scripted'], packages: ['node:vm'] },
  'models/registry': {
    layers: [
      ...CONTRACTS,
      'models/shared',
      'models/registry',
      'models/gemini',
      'models/openai',
      'models/anthropic',
      'models/scripted',
      'models/ai-sdk',
    ],
    packages: [],
  },
  'stores/fs': { layers: [...CORE, 'stores/fs'], packages: ['node:fs/promises', 'node:path'] },
  // node:crypto hashes wire bodies, so a body stored as a difference is only ever rebuilt on the base it was made from.
  'stores/sql': { layers: [...CORE, 'stores/sql'], packages: ['node:crypto'] },
  'stores/sqlite': {
    layers: [...CORE, 'stores/sql', 'stores/sqlite'],
    packages: ['better-sqlite3', 'node:fs', 'node:path'],
  },
  'stores/postgres': { layers: [...CORE, 'stores/sql', 'stores/postgres'], packages: ['pg'] },
  // MCP toolsets: the official SDK, in one file (checked below); node:http for the names of HTTP statuses.
  mcp: {
    layers: [...ALL_CORE, 'mcp'],
    packages: [
      'node:http',
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/client/stdio.js',
      '@modelcontextprotocol/sdk/client/streamableHttp.js',
      '@modelcontextprotocol/sdk/shared/transport.js',
      '@modelcontextprotocol/sdk/types.js',
      '@modelcontextprotocol/sdk/validation/ajv',
      // The SDK's own ajv, loaded from the SDK's folder to set it up without a logger (mcp-connection.ts).
      'node:module',
    ],
  },
  workspace: { layers: [...ALL_CORE, 'workspace'], packages: ['node:fs/promises', 'node:path'] },
  // OpenTelemetry: the API package only (the application brings the SDK), in one file (checked below).
  telemetry: { layers: [...CORE, 'telemetry'], packages: ['@opentelemetry/api'] },
  // Who may use a local HTTP service: shared by the API server and the inspector.
  access: { layers: ['access'], packages: ['node:crypto'] },
  // The HTTP API: node:http, no framework; the CLI composes it with a store and models. node:fs/promises and node:path
  // for the ADK eval routes, which keep eval sets and results in files where ADK keeps them (eval-files.ts).
  server: { layers: [...ALL_CORE, 'access', 'server'], packages: ['node:http', 'node:fs/promises', 'node:path'] },
  // The web inspector: reads through the store contract; Hono, and its Node adapter in one file (checked below).
  web: {
    layers: [...ALL_CORE, 'access', 'web'],
    packages: ['hono', '@hono/node-server', 'node:fs/promises', 'node:http', 'node:path', 'node:url'],
  },
  // The billing simulation builds each provider's exact body with that adapter's request builder (no SDK is loaded).
  testing: {
    layers: [
      ...ALL_CORE,
      'testing',
      'stores/fs',
      'models/shared',
      'models/scripted',
      'models/anthropic',
      'models/openai',
      'models/gemini',
    ],
    packages: ['vitest', 'node:crypto'],
  },
  cli: {
    layers: [
      ...ALL_CORE,
      'cli',
      'access',
      'mcp',
      'stores/fs',
      'stores/sqlite',
      'stores/postgres',
      'models/shared',
      'models/scripted',
      'models/registry',
      'workspace',
      'server',
      'web',
      // --bill-as: the billing simulation (its adapters' request builders; no SDK, no test framework).
      'testing',
    ],
    packages: [
      'node:fs',
      'node:fs/promises',
      'node:path',
      'node:util',
      'node:url',
      'node:readline/promises',
      // Python parses the Python tools an agent file names (python-tools.ts).
      'node:child_process',
      // Whether standard input and error are a terminal, before asking a question there (io.ts).
      'node:tty',
      'tsx/esm/api',
    ],
  },
  // The package's entry files: the curated public surface, re-exported from where each name lives.
  entry: { layers: [...ALL_CORE, 'models/shared'], packages: [] },
  // agentctx/unstable: lower-level names without the stable entries' promise, the providers' wire converters among them.
  unstable: {
    layers: [
      ...ALL_CORE,
      'models/shared',
      'models/anthropic',
      'models/openai',
      'models/gemini',
      'models/scripted',
      'models/registry',
      'telemetry',
    ],
    packages: [],
  },
};

// One file talks to each driver and SDK, so swapping or upgrading one touches one place.
const SOLE_IMPORTERS: Record<string, string> = {
  pg: 'stores/postgres/pg-driver.ts',
  'better-sqlite3': 'stores/sqlite/better-sqlite3-driver.ts',
  '@anthropic-ai/sdk': 'models/anthropic/anthropic-model.ts',
  '@google/genai': 'models/gemini/gemini-model.ts',
  openai: 'models/openai/openai-model.ts',
  '@ai-sdk/mistral': 'models/ai-sdk/named-providers.ts',
  '@ai-sdk/groq': 'models/ai-sdk/named-providers.ts',
  '@ai-sdk/deepseek': 'models/ai-sdk/named-providers.ts',
  '@hono/node-server': 'web/serve-inspector.ts',
  yaml: 'engine/config/parse-document.ts',
  'gpt-tokenizer/encoding/o200k_base': 'engine/tokens/token-counter.ts',
  'tsx/esm/api': 'cli/import-agent-module.ts',
  '@modelcontextprotocol/sdk/client/index.js': 'mcp/mcp-connection.ts',
  '@modelcontextprotocol/sdk/client/stdio.js': 'mcp/mcp-connection.ts',
  '@modelcontextprotocol/sdk/client/streamableHttp.js': 'mcp/mcp-connection.ts',
  '@modelcontextprotocol/sdk/validation/ajv': 'mcp/mcp-connection.ts',
  '@opentelemetry/api': 'telemetry/open-telemetry.ts',
};

const target = (file: SourceFile, specifier: string) => resolve(dirname(file.path), specifier).replace(/\.js$/, '.ts');

// The engine's folders, lowest first: each may import only the folders before it (and its own files), so no two
// folders depend on each other. A new folder takes its place here.
const ENGINE_ORDER = [
  'util',
  'python',
  'pipeline',
  'profile',
  'compaction',
  'tools',
  'extensions',
  'state',
  'tokens',
  'agent',
  'session',
  'memory',
  'assembly',
  'config',
  'telemetry',
  'runner',
];

describe('architecture', () => {
  it('has a rule for every layer', () => {
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) expect(RULES[file.layer], `no rule for ${file.layer} (${file.name})`).toBeDefined();
  });

  it('keeps dependencies pointing one way: no arrow from the engine or a contract into a feature', () => {
    const violations: string[] = [];
    for (const file of files) {
      const rule = RULES[file.layer] ?? { layers: [], packages: [] };
      for (const { specifier } of file.imports) {
        if (specifier.startsWith('.')) {
          const layer = layerOf(target(file, specifier));
          if (!rule.layers.includes(layer))
            violations.push(`${file.name} → ${specifier} (${file.layer} may not import ${layer})`);
        } else if (!rule.packages.includes(specifier)) {
          violations.push(`${file.name} → ${specifier} (package not allowed in ${file.layer})`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps contracts to types: only type imports, and no values but the error classes', () => {
    const problems: string[] = [];
    for (const file of files.filter((candidate) => candidate.layer === 'contracts')) {
      for (const { specifier, typeOnly } of file.imports)
        if (!typeOnly) problems.push(`${file.name} imports ${specifier} for its values`);
      for (const match of file.text.matchAll(/^export\s+(?!type\b|interface\b|declare\b)(\w+)/gm))
        problems.push(`${file.name} exports a value (${match[1]})`);
    }
    expect(problems).toEqual([]);
  });

  it('has no import cycles at all, type-only imports included', () => {
    const graph = new Map(
      files.map((file) => [
        file.path,
        file.imports
          .filter(({ specifier }) => specifier.startsWith('.'))
          .map(({ specifier }) => target(file, specifier)),
      ]),
    );
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (node: string, trail: string[]): void => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(node)), node].map((path) => relative(src, path)).join(' → '));
        return;
      }
      state.set(node, 'visiting');
      for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });

  it('keeps the engine folders in one order: each imports only the folders before it', () => {
    const engine = join(src, 'engine');
    const folderOf = (path: string) => relative(engine, path).split('/')[0] ?? '';
    const folders = new Set(files.filter((file) => file.layer === 'engine').map((file) => folderOf(file.path)));
    expect(
      [...folders].filter((folder) => !ENGINE_ORDER.includes(folder)),
      'folders missing from ENGINE_ORDER',
    ).toEqual([]);
    const wrong: string[] = [];
    for (const file of files.filter((candidate) => candidate.layer === 'engine')) {
      const from = folderOf(file.path);
      for (const { specifier } of file.imports.filter(({ specifier }) => specifier.startsWith('.'))) {
        const to = target(file, specifier);
        if (layerOf(to) !== 'engine') continue;
        const into = folderOf(to);
        if (into !== from && ENGINE_ORDER.indexOf(into) > ENGINE_ORDER.indexOf(from))
          wrong.push(`${file.name} → ${specifier} (${from} comes before ${into})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('imports each driver and SDK in exactly one file', () => {
    for (const [pkg, only] of Object.entries(SOLE_IMPORTERS)) {
      expect(
        files.filter((file) => file.imports.some(({ specifier }) => specifier === pkg)).map((file) => file.name),
        pkg,
      ).toEqual([only]);
    }
    expect(
      files
        .filter((file) => file.imports.some(({ specifier }) => specifier === 'hono'))
        .every((file) => file.layer === 'web'),
    ).toBe(true);
  });

  it('imports nothing but types from @ai-sdk/provider, which is loaded by no agentctx code', () => {
    const valueImports = files.flatMap((file) =>
      file.imports
        .filter(({ specifier, typeOnly }) => specifier === '@ai-sdk/provider' && !typeOnly)
        .map(({ specifier }) => `${file.name} → ${specifier}`),
    );
    expect(valueImports).toEqual([]);
  });

  // 450 lines at 120 columns (the formatter's width): about what 400 were before lines were wrapped.
  it('keeps source files small', () => {
    expect(files.filter((file) => file.lines > 450).map((file) => `${file.name}: ${file.lines} lines`)).toEqual([]);
  });
});
