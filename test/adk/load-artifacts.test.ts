import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { artifactsNote, safePart } from '../../src/features/adk-tools/load-artifacts.js';
import { scratch } from '../reliability/support.js';
import { cli } from '../support/cli.js';

// ADK's load_artifacts (tools/load_artifacts_tool.py at 2.5.0) named in an agent file: declared as ADK declares it,
// the session's artifacts listed in the system text, and after the model called it the artifacts it asked for put into
// the next request (not the session), each as Gemini can take it.

const tmp = scratch();
afterAll(() => tmp.cleanup());

const AGENT = 'name: helper\nmodel: gemini-2.5-flash\ninstruction: Help.\ntools:\n  - name: load_artifacts\n';

type Request = {
  system: string;
  tools: { name: string; description: string; parameters: unknown }[];
  messages: { role: string; content: Record<string, unknown>[] }[];
};

describe("ADK's load_artifacts", () => {
  it("lists the session's artifacts after the system text, and declares the tool as ADK does", async () => {
    const dir = await tmp.files({
      'agent.yaml': AGENT,
      'case.yaml': [
        'agent: agent.yaml',
        'profile: adk',
        'artifacts: { b.txt: hello, a.csv: "x,y" }',
        'events: [{ author: user, content: { role: user, parts: [{ text: Hi }] } }]',
        '',
      ].join('\n'),
    });
    const result = await cli(['inspect', join(dir, 'case.yaml'), '--json']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const request = JSON.parse(result.stdout) as Request;
    expect(request.system).toBe(
      `Help.\n\nYou are an agent. Your internal name is "helper".\n\n${artifactsNote(['a.csv', 'b.txt'])}`,
    );
    expect(JSON.stringify(request.tools)).toBe(
      JSON.stringify([
        {
          name: 'load_artifacts',
          description:
            'Loads artifacts into the session for this request.\n\nNOTE: Call when you need access to artifacts (for example, uploads saved by the\nweb UI).',
          parameters: { type: 'object', properties: { artifact_names: { type: 'array', items: { type: 'string' } } } },
        },
      ]),
    );
  });

  it("writes the names as Python's json.dumps does", () => {
    expect(artifactsNote(['a.txt', 'é\u007f.png', '"q"'])).toBe(
      'You have a list of artifacts:\n  ["a.txt", "\\u00e9\\u007f.png", "\\"q\\""]\n\n  When the user asks questions about any of the artifacts, you should call the\n  `load_artifacts` function to load the artifact. Always call load_artifacts\n  before answering questions related to the artifacts, regardless of whether the\n  artifacts have been loaded before. Do not depend on prior answers about the\n  artifacts.\n  ',
    );
  });

  it('turns artifacts into parts Gemini takes, as ADK does', () => {
    const bytes = (mimeType: string, size: number) => ({
      kind: 'binary' as const,
      mimeType,
      data: new Uint8Array(size).fill(65),
    });
    expect(safePart({ kind: 'text', mimeType: 'text/plain', text: 'hi' }, 'a.txt')).toEqual({ text: 'hi' });
    expect(safePart(bytes('image/png', 3), 'p.png')).toEqual({ inlineData: { mimeType: 'image/png', data: 'QUFB' } });
    expect(safePart(bytes('application/pdf', 3), 'd.pdf')).toEqual({
      inlineData: { mimeType: 'application/pdf', data: 'QUFB' },
    });
    // SVG is an image Gemini refuses inline: it goes as text, as other text-like types and names do.
    expect(safePart(bytes('image/svg+xml', 3), 'i.svg')).toEqual({ text: 'AAA' });
    expect(safePart(bytes('application/octet-stream', 3), 'notes.json')).toEqual({ text: 'AAA' });
    // 256 bytes are 0.25 KB: Python rounds half to even, to 0.2.
    expect(safePart(bytes('application/zip', 256), 'z.zip')).toEqual({
      text: '[Binary artifact: z.zip, type: application/zip, size: 0.2 KB. Content cannot be displayed inline.]',
    });
    expect(safePart(bytes('application/zip; charset=x', 1536), 'z.zip')).toEqual({
      text: '[Binary artifact: z.zip, type: application/zip, size: 1.5 KB. Content cannot be displayed inline.]',
    });
  });

  it('after the model called it, the next request carries the artifacts it asked for, the session does not', async () => {
    const dir = await tmp.files({
      'agent.yaml': AGENT,
      'script.yaml':
        '- functionCall: { name: load_artifacts, args: { artifact_names: [notes.txt, picture.png, missing.txt] } }\n- text: Read them.\n',
    });
    await writeFile(join(dir, 'notes.txt'), 'The notes.');
    await writeFile(join(dir, 'picture.png'), Buffer.from([137, 80, 78, 71]));
    const store = join(dir, 'run.db');
    const ran = await cli([
      'run',
      join(dir, 'agent.yaml'),
      '--model',
      `scripted:${join(dir, 'script.yaml')}`,
      '--store',
      store,
      '--session',
      's1',
      '--artifact',
      `notes.txt=${join(dir, 'notes.txt')}`,
      '--artifact',
      `user:picture.png=${join(dir, 'picture.png')}`,
      '--message',
      'What do my files say?',
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('← load_artifacts: {"artifact_names":["notes.txt","picture.png","missing.txt"]');
    const call = await cli([
      'inspect',
      join(dir, 'agent.yaml'),
      '--session',
      's1',
      '--call',
      'last',
      '--json',
      '--store',
      store,
    ]);
    const request = JSON.parse(call.stdout) as Request;
    expect(request.system).toContain('You have a list of artifacts:\n  ["notes.txt", "user:picture.png"]');
    expect(request.messages.slice(-2)).toEqual([
      { role: 'user', content: [{ text: 'Artifact notes.txt is:' }, { text: 'The notes.' }] },
      // Not in the session: found among the user's artifacts, under `user:`.
      {
        role: 'user',
        content: [{ text: 'Artifact picture.png is:' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw==' } }],
      },
    ]);
  });
});
