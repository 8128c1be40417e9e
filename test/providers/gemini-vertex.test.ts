import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { createGeminiModel } from '../../src/models/gemini/index.js';
import { fakeServers, type FakeReply } from './fake-server.js';
import { expectRecordedAsReceived, recordWire } from './wire-recorder.js';
import { scratch } from '../reliability/support.js';
import { cli, expectCliError } from '../support/cli.js';

// The Gemini adapter's Vertex AI mode, against a local server speaking Gemini's protocol on Vertex AI's paths: the
// project and region in the path, the caller's token as the bearer, and ADK's rule that Vertex AI gets the `labels`
// (and `displayName`s) the Gemini API refuses. Credentials are the test's own token, and the test environment turns
// google-auth-library's metadata-server detection off (vitest.config.ts): nothing leaves the loopback.

const { serve, closeAll } = fakeServers();
afterEach(() => closeAll());
const tmp = scratch();
afterAll(() => tmp.cleanup());

const REPLY: FakeReply = {
  json: {
    candidates: [{ content: { role: 'model', parts: [{ text: 'Hello.' }] }, index: 0, finishReason: 'STOP' }],
    usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 },
  },
};

const REQUEST: LlmRequest = {
  system: 'Be brief.',
  tools: [],
  messages: [
    {
      role: 'user',
      content: [
        { text: 'What is this?' },
        { inlineData: { mimeType: 'image/png', data: 'AA==', displayName: 'a.png' } },
      ],
    },
  ],
  config: { model: 'gemini-2.5-flash', labels: { team: 'support' } },
};

describe('Gemini on Vertex AI', () => {
  it("sends to the project's and region's path with the caller's token, keeping labels and display names", async () => {
    const server = await serve(() => REPLY);
    const model = createGeminiModel({
      model: 'gemini-2.5-flash',
      baseURL: server.url,
      env: {},
      vertex: { project: 'my-project', location: 'europe-west4', accessToken: 'token-1' },
    });
    const recorded = recordWire();
    const answer = await model.generate(REQUEST, { wire: recorded.wire });
    expect(answer.content).toEqual({ role: 'model', parts: [{ text: 'Hello.' }] });
    const [received] = server.received;
    expect(received?.url).toBe(
      '/v1beta1/projects/my-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(received?.headers['authorization']).toBe('Bearer token-1');
    expect(received?.headers['x-goog-api-key']).toBeUndefined();
    expect(received?.body).toMatchObject({
      labels: { team: 'support' },
      contents: [{ parts: [{ text: 'What is this?' }, { inlineData: { displayName: 'a.png' } }] }],
    });
    // What agentctx records as sent is what the server received, and the token is not in it.
    expectRecordedAsReceived(recorded.seen, server);
    expect(JSON.stringify(recorded.seen)).not.toContain('token-1');
  });

  it("sends ADK's VertexAiSearchTool, read from an agent file, as Gemini's retrieval built-in", async () => {
    const dir = await tmp.files({
      'agent.yaml': [
        'name: searcher',
        'model: gemini-2.5-flash',
        'instruction: Search the docs.',
        'tools:',
        '  - name: VertexAiSearchTool',
        '    args: { data_store_id: projects/p/locations/global/collections/c/dataStores/docs, max_results: 5 }',
        '',
      ].join('\n'),
      'bad.yaml': 'name: searcher\ntools:\n  - name: VertexAiSearchTool\n    args: { filter: x }\n',
    });
    const inspected = await cli(['inspect', join(dir, 'agent.yaml'), '--json']);
    const request = JSON.parse(inspected.stdout) as LlmRequest;
    expect(request.builtInTools).toEqual([
      {
        provider: 'google',
        type: 'retrieval',
        settings: {
          vertexAiSearch: { datastore: 'projects/p/locations/global/collections/c/dataStores/docs', maxResults: 5 },
        },
      },
    ]);
    const server = await serve(() => REPLY);
    const model = createGeminiModel({
      model: 'gemini-2.5-flash',
      baseURL: server.url,
      env: {},
      vertex: { project: 'p', accessToken: 'token' },
    });
    await model.generate(request);
    expect((server.received[0]?.body as { tools: unknown }).tools).toEqual([
      {
        retrieval: {
          vertexAiSearch: { datastore: 'projects/p/locations/global/collections/c/dataStores/docs', maxResults: 5 },
        },
      },
    ]);
    expectCliError(
      await cli(['check', join(dir, 'bad.yaml')]),
      /tools\[0\]\.args: give either data_store_id or search_engine_id, as ADK requires/,
    );
  });

  it('takes Vertex AI, the project, the region and the address from the environment, as ADK users set them', async () => {
    const server = await serve(() => REPLY);
    let asked = 0;
    const model = createGeminiModel({
      model: 'gemini-2.5-flash',
      env: {
        GOOGLE_GENAI_USE_VERTEXAI: 'TRUE',
        GOOGLE_CLOUD_PROJECT: 'env-project',
        GOOGLE_CLOUD_LOCATION: 'us-central1',
        GOOGLE_VERTEX_BASE_URL: server.url,
        GEMINI_API_KEY: 'not-used',
      },
      vertex: { accessToken: () => `fresh-${++asked}` },
    });
    await model.generate(REQUEST);
    await model.generate(REQUEST);
    expect(server.received.map((request) => [request.url.split(':')[0], request.headers['authorization']])).toEqual([
      [
        '/v1beta1/projects/env-project/locations/us-central1/publishers/google/models/gemini-2.5-flash',
        'Bearer fresh-1',
      ],
      [
        '/v1beta1/projects/env-project/locations/us-central1/publishers/google/models/gemini-2.5-flash',
        'Bearer fresh-2',
      ],
    ]);
  });

  it('leaves labels and display names out on the Gemini API, which refuses them, as ADK does', async () => {
    const server = await serve(() => REPLY);
    const model = createGeminiModel({ model: 'gemini-2.5-flash', apiKey: 'key', baseURL: server.url, env: {} });
    await model.generate(REQUEST);
    const body = server.received[0]?.body as Record<string, unknown>;
    expect(server.received[0]?.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(body['labels']).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('displayName');
  });

  it('says in one line what is missing when Vertex AI has no project', () => {
    let error: unknown;
    try {
      createGeminiModel({ model: 'gemini-2.5-flash', env: { GOOGLE_GENAI_USE_VERTEXAI: '1' } });
    } catch (caught) {
      error = caught;
    }
    expect(AgentctxError.isInstance(error) && error.code).toBe('missing_credentials');
    expect((error as Error).message).toBe(
      'Vertex AI needs a Google Cloud project: vertex.project is not set, nor GOOGLE_CLOUD_PROJECT.',
    );
  });
});
