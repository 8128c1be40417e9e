import type { JsonSchema } from '../../engine/config/agent-file-schema.js';
import { type SpelledObject, spelledObjectSchema } from './spelled-object-schema.js';
import { orNull, ref } from './eval-set-fields.js';

// google-genai's messages as ADK's eval files hold them, for the published schemas: the fields genai-content.ts and
// the engine's content reader take (src/engine/session/decode-content.ts), in either spelling, every one nullable;
// any other genai field only as null (ADK writes each unset one as null: "video_metadata": null).

const text = (description: string): JsonSchema => orNull({ type: 'string' }, description);
const name = (description: string): JsonSchema => orNull({ type: 'string', minLength: 1 }, description);

const GENAI_OBJECTS: Readonly<Record<string, Omit<SpelledObject, 'extras' | 'nullIsAbsent'>>> = {
  Content: {
    description: 'A genai message: its role and parts.',
    fields: {
      role: {
        enum: ['user', 'model', null],
        description: 'user or model; absent or null, the role of where it stands (user for user_content, else model).',
      },
      parts: orNull({ type: 'array', items: ref('Part') }, 'The parts of the message.'),
    },
  },
  Part: {
    description: 'A part of a message: exactly one of text, a function call or response, data or code.',
    fields: {
      text: text('Text.'),
      thought: orNull({ type: 'boolean' }, 'Whether the text or call is the model’s reasoning.'),
      thoughtSignature: text('The signature the model gave its reasoning.'),
      providerMetadata: orNull(
        { type: 'object', additionalProperties: { type: 'object' } },
        'agentctx’s metadata of a text or function call part, by provider.',
      ),
      functionCall: orNull(ref('FunctionCall'), 'A tool call.'),
      functionResponse: orNull(ref('FunctionResponse'), 'A tool’s response.'),
      inlineData: orNull(ref('Blob'), 'Data inline, in base64.'),
      fileData: orNull(ref('FileData'), 'Data in a file, by its URI.'),
      executableCode: orNull(ref('ExecutableCode'), 'Code the model wrote to be run.'),
      codeExecutionResult: orNull(ref('CodeExecutionResult'), 'The result of running that code.'),
    },
    exactlyOneOf: [
      'text',
      'functionCall',
      'functionResponse',
      'inlineData',
      'fileData',
      'executableCode',
      'codeExecutionResult',
    ],
  },
  FunctionCall: {
    description: 'A tool call.',
    fields: {
      id: text('The id of the call (compared by no metric).'),
      name: name('The tool’s name.'),
      args: orNull({ type: 'object' }, 'Its arguments, as the tool takes them.'),
    },
    required: ['name'],
  },
  FunctionResponse: {
    description: 'A tool’s response.',
    fields: {
      id: text('The id of the call it answers.'),
      name: name('The tool’s name.'),
      response: orNull({ type: 'object' }, 'What the tool returned.'),
    },
    required: ['name'],
  },
  Blob: {
    description: 'Inline data.',
    fields: {
      mimeType: name('Its media type: image/png.'),
      data: orNull({ type: 'string', pattern: '^[A-Za-z0-9+/_-]*={0,2}$' }, 'The bytes, in base64.'),
      displayName: text('A name for it.'),
    },
    required: ['mimeType', 'data'],
  },
  FileData: {
    description: 'Data in a file.',
    fields: {
      fileUri: name('The URI of the file.'),
      mimeType: text('Its media type.'),
      displayName: text('A name for it.'),
    },
    required: ['fileUri'],
  },
  ExecutableCode: {
    description: 'Code the model wrote.',
    fields: { code: text('The code.'), language: text('Its language (PYTHON by default).') },
    required: ['code'],
  },
  CodeExecutionResult: {
    description: 'The result of running code.',
    fields: { outcome: text('How the run ended: OUTCOME_OK, OUTCOME_FAILED…'), output: text('What it printed.') },
    required: ['outcome'],
  },
};

/** The definitions of genai's message objects, each a schema of its own. */
export function genaiDefinitions(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(GENAI_OBJECTS).map(([key, object]) => [
      key,
      spelledObjectSchema({ ...object, extras: 'null', nullIsAbsent: true }),
    ]),
  );
}
