import type { Part } from '../../contracts/content.js';
import type { JsonSchema } from '../../contracts/request.js';

/*
 * The Gemini API's JSON shapes, as far as this adapter writes and reads them. They are declared here rather than
 * taken from `@google/genai` so that the mapping files stay pure; `gemini-model.ts` alone meets the SDK's types.
 */

/** A function the model may call. */
export type GeminiFunctionDeclaration = {
  name: string;
  description: string;
  /** Plain JSON Schema (the API's `parametersJsonSchema`), not the OpenAPI subset of `parameters`. */
  parametersJsonSchema?: JsonSchema;
};

/** One turn as sent: agentctx's parts already carry the Gemini API's field names. */
export type GeminiRequestContent = { role: string; parts: Part[] };

/** What `models.generateContent` takes: the model, the turns, and a config holding everything else. */
/** An entry of `tools`: the functions, or one built-in tool (`{ googleSearch: {} }`). */
export type GeminiTool = { functionDeclarations?: GeminiFunctionDeclaration[]; [builtIn: string]: unknown };

/** The generation settings of `GenerateContentConfig` agentctx's fields map to. */
export type GeminiGenerationConfig = {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  responseMimeType?: string;
  responseJsonSchema?: JsonSchema;
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'NONE' | 'ANY'; allowedFunctionNames?: string[] } };
  thinkingConfig?: {
    thinkingBudget?: number;
    thinkingLevel?: 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
    includeThoughts?: boolean;
  };
  safetySettings?: { category: string; threshold: string }[];
  labels?: Record<string, string>;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  candidateCount?: number;
  mediaResolution?: 'MEDIA_RESOLUTION_LOW' | 'MEDIA_RESOLUTION_MEDIUM' | 'MEDIA_RESOLUTION_HIGH';
};

export type GeminiRequest = {
  model: string;
  contents: GeminiRequestContent[];
  config: GeminiGenerationConfig & {
    systemInstruction?: { parts: [{ text: string }] };
    tools?: GeminiTool[];
    /**
     * The explicit cache (`cachedContents/…`) holding this request's system instruction, tools and first contents;
     * a request naming one sends none of those itself (the API answers 400 otherwise).
     */
    cachedContent?: string;
  };
};

/** What `caches.create` takes for a cache of a request's stable prefix (the SDK adds `models/` to the model). */
export type GeminiCacheCreate = {
  model: string;
  /** A duration in seconds, as the API writes it: `1800s`. */
  ttl: string;
  displayName: string;
  contents: GeminiRequestContent[];
  systemInstruction?: { parts: [{ text: string }] };
  tools?: GeminiTool[];
  toolConfig?: GeminiGenerationConfig['toolConfig'];
};

/** What `models.countTokens` takes (the SDK sends only the turns to the Gemini API). */
export type GeminiCountRequest = { model: string; contents: GeminiRequestContent[] };

/** A part as the API returns it: every field optional, unknown kinds ignored. */
export type GeminiPart = {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
  inlineData?: { mimeType?: string; data?: string };
  fileData?: { fileUri?: string; mimeType?: string };
  executableCode?: { code?: string; language?: string };
  codeExecutionResult?: { outcome?: string; output?: string };
};

export type GeminiCandidate = {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  finishMessage?: string;
};

export type GeminiUsageMetadata = {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  cachedContentTokenCount?: number;
  totalTokenCount?: number;
};

/** A `generateContent` response, or one chunk of a streamed one. */
export type GeminiResponse = {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  usageMetadata?: GeminiUsageMetadata;
};
