/** A call the model asks the runtime to make. `id` pairs it with its response. */
export type FunctionCall = {
  id?: string;
  name: string;
  /** Absent when the model sent none (ADK renders that as `None`, not `{}`). */
  args?: Record<string, unknown>;
};

/** The result of a function call, sent back to the model. */
export type FunctionResponse = {
  id?: string;
  name: string;
  response?: Record<string, unknown>;
};

/**
 * Opaque data a provider needs back on a later call, by provider name (`anthropic`, `openai`): an Anthropic
 * `redacted_thinking` block's data, an OpenAI reasoning item's id and `encrypted_content`. JSON, kept with the part in
 * the session and the recorded call; the adapter of that provider sends it back, every other adapter leaves it out.
 */
export type ProviderMetadata = { [provider: string]: Record<string, unknown> };

export type TextPart = {
  text: string;
  /** The model's reasoning rather than its answer. */
  thought?: boolean;
  /** Opaque provider token that must travel back with the part. */
  thoughtSignature?: string;
  providerMetadata?: ProviderMetadata;
};

export type FunctionCallPart = {
  functionCall: FunctionCall;
  thought?: boolean;
  thoughtSignature?: string;
  providerMetadata?: ProviderMetadata;
};
export type FunctionResponsePart = { functionResponse: FunctionResponse };

/** Bytes carried in the message itself, base64-encoded. */
export type InlineDataPart = { inlineData: { mimeType: string; data: string; displayName?: string } };

/** A file the provider fetches by URI. */
export type FileDataPart = { fileData: { fileUri: string; mimeType?: string; displayName?: string } };

/** Code a model wrote for a code-execution tool, and what running it gave. */
export type ExecutableCodePart = { executableCode: { code: string; language: string } };
export type CodeExecutionResultPart = { codeExecutionResult: { outcome: string; output?: string } };

/** One piece of a message: exactly one of text, a function call or response, inline or file data, executable code or its result. */
export type Part =
  | TextPart
  | FunctionCallPart
  | FunctionResponsePart
  | InlineDataPart
  | FileDataPart
  | ExecutableCodePart
  | CodeExecutionResultPart;

export type Role = 'user' | 'model';

/** A message: who said it and what it is made of. */
export type Content = {
  role: Role;
  parts: Part[];
};
