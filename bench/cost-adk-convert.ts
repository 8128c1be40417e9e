// Between @google/adk 2.0.0's model request (genai-shaped) and agentctx's LlmRequest, and back from agentctx's
// ModelResponse to ADK's LlmResponse: what bench/cost-adk.ts needs to bill ADK's requests and to let the report
// analyst's script answer them.
import type { LlmRequest as AdkRequest, LlmResponse as AdkResponse } from '@google/adk';
import type { LlmRequest, ModelResponse, Part, ToolDeclaration } from 'agentctx';

type GenaiPart = NonNullable<AdkRequest['contents'][number]['parts']>[number];
type Message = LlmRequest['messages'][number];
type JsonSchema = NonNullable<ToolDeclaration['parameters']>;

/** ADK's request as agentctx's LlmRequest, faithfully: the system text, the declared tools and the contents, nothing added. */
export function fromAdkRequest(request: AdkRequest): LlmRequest {
  return {
    system: systemText(request),
    tools: declarations(request),
    messages: request.contents.map(toMessage),
    config: {},
  };
}

/** The system instruction as one text, whatever form ADK left it in (it appends instructions as one string). */
function systemText(request: AdkRequest): string {
  const instruction: unknown = request.config?.systemInstruction;
  if (instruction === undefined || instruction === null) return '';
  if (typeof instruction === 'string') return instruction;
  const parts: unknown[] = Array.isArray(instruction)
    ? instruction
    : typeof instruction === 'object' && 'parts' in instruction && Array.isArray(instruction.parts)
      ? instruction.parts
      : [instruction];
  return parts
    .map((part) =>
      typeof part === 'string'
        ? part
        : typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string'
          ? part.text
          : '',
    )
    .join('');
}

function declarations(request: AdkRequest): ToolDeclaration[] {
  const found: ToolDeclaration[] = [];
  for (const tool of request.config?.tools ?? []) {
    if (typeof tool !== 'object' || tool === null || !('functionDeclarations' in tool)) continue;
    for (const declaration of tool.functionDeclarations ?? []) {
      if (declaration.name === undefined) throw new Error('ADK declared a tool without a name');
      const schema = declaration.parametersJsonSchema ?? declaration.parameters;
      found.push({
        name: declaration.name,
        description: declaration.description ?? '',
        ...(schema === undefined ? {} : { parameters: toJsonSchema(schema) as JsonSchema }),
      });
    }
  }
  return found;
}

// ADK's zod conversion targets genai's OpenAPI subset: upper-case types and counts as strings. agentctx's declarations
// are JSON Schema, so the types go to lower case and the counts back to numbers; nothing else changes.
const COUNTS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);
function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner === undefined) continue;
    if (key === 'type' && typeof inner === 'string') out[key] = inner.toLowerCase();
    else if (COUNTS.has(key) && typeof inner === 'string' && /^\d+$/.test(inner)) out[key] = Number(inner);
    else if (key === 'properties' && typeof inner === 'object' && inner !== null)
      out[key] = Object.fromEntries(Object.entries(inner).map(([name, schema]) => [name, toJsonSchema(schema)]));
    else out[key] = toJsonSchema(inner);
  }
  return out;
}

function toMessage(content: AdkRequest['contents'][number]): Message {
  if (content.role !== 'user' && content.role !== 'model')
    throw new Error(`ADK sent a content with role ${String(content.role)}`);
  return { role: content.role, content: (content.parts ?? []).map(toPart) };
}

// A copy of each part (JSON), so a later change on ADK's side never reaches a captured request; undefined ids dropped.
function toPart(part: GenaiPart): Part {
  if (part.functionCall !== undefined) {
    const { id, name, args } = part.functionCall;
    if (name === undefined) throw new Error('ADK sent a function call without a name');
    return {
      functionCall: { ...(id === undefined ? {} : { id }), name, ...(args === undefined ? {} : { args: copy(args) }) },
    };
  }
  if (part.functionResponse !== undefined) {
    const { id, name, response } = part.functionResponse;
    if (name === undefined) throw new Error('ADK sent a function response without a name');
    return {
      functionResponse: {
        ...(id === undefined ? {} : { id }),
        name,
        ...(response === undefined ? {} : { response: copy(response) }),
      },
    };
  }
  if (part.text !== undefined) return { text: part.text, ...(part.thought === true ? { thought: true } : {}) };
  throw new Error(`ADK sent a part the analyst never makes: ${Object.keys(part).join(', ')}`);
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * The request as the analyst's script reads it. ADK JS 2.0.0 retells another agent's tool result as
 * "[author] tool `name` returned result: …", where ADK Python (and agentctx) write "[author] `name` tool returned
 * result: …", the wording the script looks for. Only that wording changes here; what is billed is ADK's own text.
 */
export function forScript(request: LlmRequest): LlmRequest {
  const retold = /^(\[[^\]]*\]) tool (`[^`]*`) returned result: /;
  return {
    ...request,
    messages: request.messages.map((message) => ({
      ...message,
      content: message.content.map((part) =>
        'text' in part && retold.test(part.text)
          ? { ...part, text: part.text.replace(retold, '$1 $2 tool returned result: ') }
          : part,
      ),
    })),
  };
}

/**
 * The script's answer as ADK's LlmResponse. A call's argument the tool declares under another spelling (the script
 * writes `agent_name`, ADK JS declares transfer_to_agent's `agentName`) takes the declared spelling, as a model
 * reading the declaration would.
 */
export function toAdkResponse(response: ModelResponse, tools: readonly ToolDeclaration[]): AdkResponse {
  if (response.errorCode !== undefined)
    return { errorCode: response.errorCode, errorMessage: response.errorMessage ?? '' };
  const parts: GenaiPart[] = (response.content?.parts ?? []).map((part) => {
    if ('functionCall' in part) {
      const { id, name, args } = part.functionCall;
      return {
        functionCall: {
          ...(id === undefined ? {} : { id }),
          name,
          args: declaredSpelling(
            args ?? {},
            tools.find((tool) => tool.name === name),
          ),
        },
      };
    }
    if ('text' in part) return { text: part.text, ...(part.thought === true ? { thought: true } : {}) };
    throw new Error(`the script answered with a part ADK is not given here: ${Object.keys(part).join(', ')}`);
  });
  return { content: { role: 'model', parts } };
}

function declaredSpelling(args: Record<string, unknown>, tool: ToolDeclaration | undefined): Record<string, unknown> {
  const properties = tool?.parameters?.['properties'];
  if (properties === null || typeof properties !== 'object') return args;
  const declared = new Set(Object.keys(properties));
  const camel = (name: string) => name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => [
      !declared.has(key) && declared.has(camel(key)) ? camel(key) : key,
      value,
    ]),
  );
}
