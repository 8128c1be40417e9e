import type { Content, FunctionCall, FunctionResponse, Part } from '../../contracts/content.js';
import type { PyJson } from './pydantic-json.js';

// agentctx's messages as pydantic dumps google-genai's `Content` and `Part` without exclusions (what ADK's
// `model_dump_json` does to every message of a result): every field of the model in its declared order, snake_case,
// `null` when unset. The fields are those of google-genai 2.19.0 (google/genai/types.py, `Part`, `Content`,
// `FunctionCall`, `FunctionResponse`, `Blob`, `FileData`, `ExecutableCode`, `CodeExecutionResult`); ADK 2.5.0 takes
// any google-genai from 2.9 to 3, whose models differ in the fields they have. Bytes (`Blob.data`,
// `Part.thought_signature`) are written as genai's `ser_json_bytes='base64'` writes them: URL-safe base64.
// agentctx's `providerMetadata` has no place in a genai part and is left out.

const PART_FIELDS = [
  'media_resolution',
  'code_execution_result',
  'executable_code',
  'file_data',
  'function_call',
  'function_response',
  'inline_data',
  'text',
  'thought',
  'thought_signature',
  'video_metadata',
  'tool_call',
  'tool_response',
  'part_metadata',
  'audio_transcription',
] as const;

type PartField = (typeof PART_FIELDS)[number];

/** A message as pydantic dumps a genai `Content`; `null` for none. */
export function genaiContentJson(content: Content | undefined): PyJson {
  if (content === undefined) return null;
  return { parts: content.parts.map(genaiPartJson), role: content.role };
}

/** A part as pydantic dumps a genai `Part`. */
export function genaiPartJson(part: Part): PyJson {
  const set: Partial<Record<PartField, PyJson>> = {};
  if ('text' in part) {
    set.text = part.text;
    if (part.thought !== undefined) set.thought = part.thought;
    if (part.thoughtSignature !== undefined) set.thought_signature = urlSafe(part.thoughtSignature);
  } else if ('functionCall' in part) {
    set.function_call = genaiFunctionCallJson(part.functionCall);
    if (part.thought !== undefined) set.thought = part.thought;
    if (part.thoughtSignature !== undefined) set.thought_signature = urlSafe(part.thoughtSignature);
  } else if ('functionResponse' in part) {
    set.function_response = genaiFunctionResponseJson(part.functionResponse);
  } else if ('inlineData' in part) {
    const data = part.inlineData;
    set.inline_data = { data: urlSafe(data.data), display_name: data.displayName ?? null, mime_type: data.mimeType };
  } else if ('fileData' in part) {
    const file = part.fileData;
    set.file_data = {
      display_name: file.displayName ?? null,
      file_uri: file.fileUri,
      mime_type: file.mimeType ?? null,
    };
  } else if ('executableCode' in part) {
    set.executable_code = { code: part.executableCode.code, language: part.executableCode.language, id: null };
  } else {
    const result = part.codeExecutionResult;
    set.code_execution_result = { outcome: result.outcome, output: result.output ?? null, id: null };
  }
  const json: { [key: string]: PyJson } = {};
  for (const field of PART_FIELDS) json[field] = set[field] ?? null;
  return json;
}

/** A call as pydantic dumps a genai `FunctionCall`. */
export function genaiFunctionCallJson(call: FunctionCall): PyJson {
  return {
    id: call.id ?? null,
    args: (call.args ?? null) as PyJson,
    name: call.name,
    partial_args: null,
    will_continue: null,
  };
}

/** A response as pydantic dumps a genai `FunctionResponse`. */
export function genaiFunctionResponseJson(response: FunctionResponse): PyJson {
  return {
    will_continue: null,
    scheduling: null,
    parts: null,
    id: response.id ?? null,
    name: response.name,
    response: (response.response ?? null) as PyJson,
  };
}

function urlSafe(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_');
}
