import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { requireApiKey } from '../shared/credentials.js';
import { baseURLFrom, environmentOf, nonEmpty, type ProviderSettings } from '../shared/settings.js';
import type { GeminiBackend } from './to-gemini-request.js';

/**
 * Vertex AI instead of the Gemini API: the project and region that serve the model, and how calls authenticate.
 * Unset fields come from `GOOGLE_CLOUD_PROJECT` and `GOOGLE_CLOUD_LOCATION` (else `global`), as ADK's and the SDK's
 * users set them.
 */
export type GeminiVertexSettings = {
  project?: string | undefined;
  location?: string | undefined;
  /**
   * An OAuth access token, or a function that gives a current one (called for each request). Absent: Google's
   * Application Default Credentials (`gcloud auth application-default login`, a service account key named by
   * `GOOGLE_APPLICATION_CREDENTIALS`, or the metadata server of a Google Cloud machine), through the SDK's
   * google-auth-library.
   */
  accessToken?: string | (() => string | Promise<string>) | undefined;
};

/** The options of the SDK's client this file sets (the SDK's type is kept inside gemini-model.ts, with the SDK). */
export type GeminiClientOptions = {
  vertexai: boolean;
  apiKey?: string;
  apiVersion?: string;
  project?: string;
  location?: string;
  httpOptions?: { baseUrl: string };
  googleAuthOptions?: { authClient: { getRequestHeaders(): Promise<Headers> } };
};

/** What the adapter connects with: the SDK's options, the secrets to keep out of errors and records, and the API. */
export type GeminiConnection = { backend: GeminiBackend; options: GeminiClientOptions; secrets: string[] };

const GEMINI_API_URL = 'https://generativelanguage.googleapis.com';
const TRUE = new Set(['1', 'true', 'yes']);

/**
 * The Gemini API with a key (`apiKey`, else `GEMINI_API_KEY`, else `GOOGLE_API_KEY`), or Vertex AI when `vertex` is
 * given or `GOOGLE_GENAI_USE_VERTEXAI` is true. Every value is handed to the SDK explicitly, so the SDK's own reading
 * of the environment never decides anything.
 */
export function geminiConnection(
  settings: ProviderSettings & { vertex?: GeminiVertexSettings | boolean | undefined },
): GeminiConnection {
  const env = environmentOf(settings);
  const vertex =
    settings.vertex === true ||
    (settings.vertex === undefined && TRUE.has((env['GOOGLE_GENAI_USE_VERTEXAI'] ?? '').toLowerCase()))
      ? {}
      : settings.vertex === false
        ? undefined
        : settings.vertex;
  if (vertex === undefined) {
    const apiKey = requireApiKey('Gemini', settings, ['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
    const baseUrl = baseURLFrom(settings, 'GOOGLE_GEMINI_BASE_URL', GEMINI_API_URL);
    return {
      backend: 'gemini-api',
      options: { vertexai: false, apiKey, apiVersion: 'v1beta', httpOptions: { baseUrl } },
      secrets: [apiKey],
    };
  }
  const project = nonEmpty(vertex.project) ?? nonEmpty(env['GOOGLE_CLOUD_PROJECT']);
  if (project === undefined)
    throw new AgentctxError({
      code: 'missing_credentials',
      message: 'Vertex AI needs a Google Cloud project: vertex.project is not set, nor GOOGLE_CLOUD_PROJECT.',
      hint: 'Export GOOGLE_CLOUD_PROJECT (and GOOGLE_CLOUD_LOCATION), or pass vertex: { project, location }.',
    });
  const location = nonEmpty(vertex.location) ?? nonEmpty(env['GOOGLE_CLOUD_LOCATION']) ?? 'global';
  const baseUrl = nonEmpty(settings.baseURL) ?? nonEmpty(env['GOOGLE_VERTEX_BASE_URL']);
  const token = vertex.accessToken;
  return {
    backend: 'vertex',
    options: {
      vertexai: true,
      project,
      location,
      ...(baseUrl === undefined ? {} : { httpOptions: { baseUrl } }),
      // A token of the caller's: an auth client that only hands it out, so nothing looks for other credentials.
      ...(token === undefined ? {} : { googleAuthOptions: { authClient: tokenClient(token) } }),
    },
    secrets: typeof token === 'string' ? [token] : [],
  };
}

// What the SDK asks of an auth client: the headers of a request.
function tokenClient(token: string | (() => string | Promise<string>)) {
  return {
    async getRequestHeaders(): Promise<Headers> {
      const value = typeof token === 'string' ? token : await token();
      return new Headers({ authorization: `Bearer ${value}` });
    },
  };
}
