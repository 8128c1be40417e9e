import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { createAgentTree } from '../../src/engine/agent/agent-tree.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { agentFromConfig } from '../../src/presets/agent-files.js';
import { defineRows } from '../reliability/rows.js';
import { caught, expectTyped, scratch } from '../reliability/support.js';
import { cli, expectCliError } from '../support/cli.js';

// Part 1, agent definitions and case files: read through the CLI's `main` (as `agentctx inspect` and `run` read them),
// each answered with one line on stderr and exit 2, or, in code, a ValidationError listing every problem by path.
const tmp = scratch();
const AGENT = 'name: helper\ninstruction: Help.\n';
const SCRIPT = ['--model', 'scripted:examples/draft-and-review/script.yaml', '--store', 'memory', '--message', 'hi'];
/** `agentctx run` on an agent file (the first of `files`, or `main`). */
const run = async (files: Record<string, string>, main = Object.keys(files)[0] as string) =>
  cli(['run', join(await tmp.files(files), main), ...SCRIPT]);
/** `agentctx inspect` on a case file. */
const inspect = async (files: Record<string, string>, main = 'case.yaml', ...flags: string[]) =>
  cli(['inspect', join(await tmp.files(files), main), ...flags]);

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'agent.yaml-syntax',
      entry: 'agent definition',
      tried: 'YAML with an unclosed bracket',
      expected: 'ValidationError naming the file, line and column; CLI: one line, exit 2',
      run: async () =>
        expectCliError(
          await run({ 'agent.yaml': 'name: helper\ntools: [Read\n' }),
          /Invalid .*agent\.yaml: line \d+, column \d+: .*Fix the YAML\/JSON syntax/,
        ),
    },
    {
      id: 'agent.unknown-field',
      entry: 'agent definition',
      tried: 'a misspelt field (`instuction`)',
      expected: "`unknown field (did you mean 'instruction'?)` with the allowed fields",
      run: async () =>
        expectCliError(
          await run({ 'agent.yaml': 'name: helper\ninstuction: Help.\n' }),
          /instuction: unknown field \(did you mean 'instruction'\?\); allowed: name, description, kind, agentClass/,
        ),
    },
    {
      id: 'agent.missing-name',
      entry: 'agent definition',
      tried: 'no `name`',
      expected: '`name: is required`',
      run: async () => expectCliError(await run({ 'agent.yaml': 'instruction: Help.\n' }), /name: is required/),
    },
    {
      id: 'agent.bad-name',
      entry: 'agent definition',
      tried: 'a name with a space, and a sub-agent named `user`',
      expected: 'both reported in one error: not a valid agent name; `user` is reserved',
      run: async () => {
        const error = await caught(() =>
          agentFromConfig({ name: 'bad name', subAgents: [{ name: 'user' }] }, { filename: 'agent.yaml' }),
        );
        expectTyped(error, {
          code: 'invalid_input',
          message: /subAgents\[0\]\.name: 'user' is reserved.*name: "bad name" is not a valid agent name/,
        });
      },
    },
    {
      id: 'agent.duplicate-names',
      entry: 'agent definition',
      tried: 'two agents with the same name in one tree',
      expected: 'refused when the tree is built, naming both parents',
      run: async () => {
        const twin = llmAgent({ name: 'twin' });
        const error = await caught(() =>
          createAgentTree(llmAgent({ name: 'root', subAgents: [twin, llmAgent({ name: 'x', subAgents: [twin] })] })),
        );
        expectTyped(error, { message: /twin: the name is used twice: under 'root' and under 'x'/ });
      },
    },
    {
      id: 'agent.self-include',
      entry: 'agent definition',
      tried: '`config_path` files that include each other',
      expected: '`includes itself` with the chain of files, no endless loop',
      run: async () =>
        expectCliError(
          await run({
            'agent.yaml': 'name: a\nsub_agents: [{ config_path: b.yaml }]\n',
            'b.yaml': 'config_path: agent.yaml\n',
          }),
          /includes itself \(.*b\.yaml → .*agent\.yaml → .*b\.yaml\)/,
        ),
    },
    {
      id: 'agent.alias-bomb',
      entry: 'agent definition',
      tried: 'a YAML alias bomb (billion laughs)',
      expected: 'refused before it expands: `cannot be expanded: Excessive alias count`, one line, exit 2',
      run: async () => {
        const bomb = [
          'a: &a [x, x, x, x, x, x, x, x, x]',
          ...Array.from(
            { length: 8 },
            (_, i) =>
              `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
                .fill(`*${String.fromCharCode(97 + i)}`)
                .join(', ')}]`,
          ),
          'name: helper',
        ].join('\n');
        const started = performance.now();
        expectCliError(
          await run({ 'agent.yaml': bomb }),
          /cannot be expanded: Excessive alias count.*Use fewer YAML aliases/,
        );
        expect(performance.now() - started).toBeLessThan(2000);
      },
    },
    {
      id: 'agent.duplicate-keys',
      entry: 'agent definition',
      tried: 'a JSON file with the same key twice',
      expected: 'refused (`Map keys must be unique`) rather than one value silently winning',
      run: async () =>
        expectCliError(await run({ 'agent.json': '{"name": "helper", "name": "other"}' }), /Map keys must be unique/),
    },
    {
      id: 'agent.not-a-mapping',
      entry: 'agent definition',
      tried: 'a file holding a list, and an empty file',
      expected: '`expected an agent definition (a mapping)`, naming what it got',
      run: async () => {
        expectCliError(
          await run({ 'agent.yaml': '- a\n- b\n' }),
          /expected an agent definition \(a mapping\), got a list/,
        );
        expectCliError(await run({ 'agent.yaml': '' }), /expected an agent definition \(a mapping\), got null/);
      },
    },
    {
      id: 'agent.missing-file',
      entry: 'agent definition',
      tried: 'a path that does not exist, and a folder',
      expected: '`Cannot read … no such file. Check the path.`; a folder: `is a folder, not a file`',
      run: async () => {
        expectCliError(
          await cli(['inspect', 'no/such/agent.yaml']),
          /Cannot read no\/such\/agent\.yaml: no such file\. Check the path\./,
        );
        expectCliError(await cli(['inspect', await tmp.dir()]), /is a folder, not a file/);
      },
    },
    {
      id: 'agent.module-without-agent',
      entry: 'agent definition',
      tried: 'a JavaScript module that exports no agent',
      expected: '`exports no agent definition`, with how to export one',
      run: async () =>
        expectCliError(
          await run({ 'agent.mjs': 'export const x = 1;\n' }),
          /exports no agent definition\. Export one as `default` or `agent`/,
        ),
    },
    {
      id: 'agent.tool-without-implementation',
      entry: 'agent definition',
      tried: 'a tool named by a file with no declaration or implementation',
      expected: "`tool 'ghost' has no implementation here; declare it with a description`",
      run: async () =>
        expectCliError(
          await run({ 'agent.yaml': `${AGENT}tools: [ghost]\n` }),
          /tools\[0\]: tool 'ghost' has no implementation here; declare it with a description/,
        ),
    },
    {
      id: 'agent.missing-skills-or-memory',
      entry: 'agent definition',
      tried: 'a `skills.dir` folder and a `memory` file that do not exist',
      expected: '`skills.dir: cannot be read (ENOENT …)`, `memory[0].file: cannot be read (…)`, one line, exit 2',
      run: async () => {
        expectCliError(
          await run({ 'agent.yaml': `${AGENT}skills: { dir: nope }\n` }),
          /skills\.dir: cannot be read \(ENOENT: no such file or directory, scandir '.*nope'\)/,
        );
        expectCliError(
          await run({ 'agent.yaml': `${AGENT}memory: [{ file: NOPE.md, mode: on }]\n` }),
          /memory\[0\]\.file: cannot be read \(ENOENT: no such file or directory, open '.*NOPE\.md'\)/,
        );
      },
    },
    {
      id: 'agent.unknown-model',
      entry: 'agent definition',
      tried: '`model: nope:x` in the file, then `agentctx run`',
      expected: 'one line naming the model string and the forms it takes; the store gets no session',
      run: async () => {
        const dir = await tmp.files({ 'agent.yaml': `${AGENT}model: nope:x\n` });
        const store = join(dir, 'store.db');
        expectCliError(
          await cli(['run', join(dir, 'agent.yaml'), '--store', store, '--message', 'hi']),
          /Cannot use model 'nope:x': no provider is known for it/,
        );
        if (existsSync(store)) {
          const db = new Database(store, { readonly: true });
          try {
            const tables = db.prepare(`SELECT name FROM sqlite_master WHERE name = 'agentctx_sessions'`).all();
            if (tables.length > 0)
              expect(db.prepare('SELECT COUNT(*) AS n FROM agentctx_sessions').get()).toEqual({ n: 0 });
          } finally {
            db.close();
          }
        }
      },
    },
    {
      id: 'case.unknown-agent',
      entry: 'case file',
      tried: '`currentAgent` naming no agent of the tree',
      expected: 'names the agents there are',
      run: async () =>
        expectCliError(
          await inspect({ 'case.yaml': `agent: { ${AGENT.trim().split('\n').join(', ')} }\ncurrentAgent: ghost\n` }),
          /currentAgent: no agent named 'ghost'; the agents are helper/,
        ),
    },
    {
      id: 'case.duplicate-event-ids',
      entry: 'case file',
      tried: 'two events with the same id',
      expected: 'refused, naming the event and the id',
      run: async () => {
        const events =
          'events:\n  - { id: e1, author: user, content: { role: user, parts: [{ text: a }] } }\n  - { id: e1, author: user, content: { role: user, parts: [{ text: b }] } }\n';
        expectCliError(
          await inspect({ 'case.yaml': `agent: agent.yaml\n${events}`, 'agent.yaml': AGENT }),
          /events\[1\]\.id: duplicate event id 'e1'/,
        );
      },
    },
    {
      id: 'case.bad-fields',
      entry: 'case file',
      tried: '`valueFormat: ruby`, `escapes: "yes"` and a misspelt `stat`',
      expected: 'all three reported in one line, the typo with its suggestion',
      run: async () =>
        expectCliError(
          await inspect({
            'case.yaml': 'agent: agent.yaml\nvalueFormat: ruby\nescapes: "yes"\nstat: {}\n',
            'agent.yaml': AGENT,
          }),
          /stat: unknown field \(did you mean 'state'\?\).*; valueFormat: expected default or python, got "ruby"; escapes: expected true or false, got the string "yes"$/m,
        ),
    },
    {
      id: 'case.missing-agent-file',
      entry: 'case file',
      tried: '`agent:` naming a file that does not exist',
      expected: '`Cannot read … no such file`',
      run: async () =>
        expectCliError(
          await inspect({ 'case.yaml': 'agent: nowhere.yaml\n' }),
          /Cannot read .*nowhere\.yaml: no such file/,
        ),
    },
    {
      id: 'case.compaction-config',
      entry: 'case file',
      tried: '`eventsCompactionConfig` with `compactionInterval: 0` and no `overlapSize`',
      expected:
        'both problems by path (`must be at least 1, got 0`; `overlapSize: is required with compactionInterval`), before anything is planned',
      run: async () =>
        expectCliError(
          await cli([
            'compact',
            join(
              await tmp.files({
                'case.yaml': `agent: { name: helper }\neventsCompactionConfig: { compactionInterval: 0 }\n`,
              }),
              'case.yaml',
            ),
            '--dry-run',
          ]),
          /eventsCompactionConfig\.compactionInterval: must be at least 1, got 0; eventsCompactionConfig\.overlapSize: is required with compactionInterval/,
        ),
    },
  ],
  { afterAll: () => tmp.cleanup() },
);
