import type { Content, Part } from '../../src/contracts/content.js';
import type { Event } from '../../src/contracts/event.js';

// The vectors spell ADK's objects in Python's snake_case; these read them into agentctx's camelCase model.
// Payloads (call arguments, responses, state values) are left exactly as they are.

type Raw = Record<string, unknown>;

const PLACEHOLDER_BYTES = 'PGJ5dGVzPg==';

export function partFromAdk(raw: Raw): Part {
  const thought = raw['thought'] === true ? { thought: true } : {};
  if (typeof raw['text'] === 'string')
    return { text: raw['text'], ...(raw['thought'] === undefined ? {} : { thought: raw['thought'] as boolean }) };
  if (raw['function_call'] !== undefined) {
    const call = raw['function_call'] as Raw;
    return {
      functionCall: {
        ...idOf(call),
        name: call['name'] as string,
        ...(call['args'] == null ? {} : { args: call['args'] as Raw }),
      },
      ...thought,
    };
  }
  if (raw['function_response'] !== undefined) {
    const response = raw['function_response'] as Raw;
    return {
      functionResponse: {
        ...idOf(response),
        name: response['name'] as string,
        ...(response['response'] == null ? {} : { response: response['response'] as Raw }),
      },
    };
  }
  if (raw['inline_data'] !== undefined) {
    const data = raw['inline_data'] as Raw;
    return {
      inlineData: {
        mimeType: data['mime_type'] as string,
        data: data['data'] === undefined || data['data'] === '<bytes>' ? PLACEHOLDER_BYTES : (data['data'] as string),
        ...(data['display_name'] === undefined ? {} : { displayName: data['display_name'] as string }),
      },
    };
  }
  if (raw['file_data'] !== undefined) {
    const data = raw['file_data'] as Raw;
    return {
      fileData: {
        fileUri: data['file_uri'] as string,
        ...(data['mime_type'] === undefined ? {} : { mimeType: data['mime_type'] as string }),
        ...(data['display_name'] === undefined ? {} : { displayName: data['display_name'] as string }),
      },
    };
  }
  if (raw['executable_code'] !== undefined)
    return { executableCode: raw['executable_code'] as { code: string; language: string } };
  if (raw['code_execution_result'] !== undefined)
    return { codeExecutionResult: raw['code_execution_result'] as { outcome: string; output?: string } };
  throw new Error(`unknown part ${JSON.stringify(raw)}`);
}

function idOf(raw: Raw): { id?: string } {
  return typeof raw['id'] === 'string' ? { id: raw['id'] } : {};
}

export function contentFromAdk(raw: Raw): Content {
  const role = raw['role'] === 'assistant' ? 'model' : (raw['role'] as 'user' | 'model');
  return { role, parts: (raw['parts'] as Raw[]).map(partFromAdk) };
}

/** A message as the request holds it, for comparing with a vector's expected contents. */
export function messageFromAdk(raw: Raw): { role: string; content: Part[] } {
  const content = contentFromAdk(raw);
  return { role: content.role, content: content.parts };
}

export function eventsFromAdk(rawEvents: Raw[]): Event[] {
  return rawEvents.map((raw, index) => {
    const actions = (raw['actions'] ?? {}) as Raw;
    const compaction = actions['compaction'] as Raw | undefined;
    const usage = raw['usage_metadata'] as Raw | undefined;
    return {
      id: `event-${index}`,
      invocationId: (raw['invocation_id'] as string | undefined) ?? '',
      author: raw['author'] as string,
      ...(typeof raw['branch'] === 'string' ? { branch: raw['branch'] } : {}),
      timestamp: (raw['timestamp'] as number | undefined) ?? index + 1,
      ...(raw['content'] == null ? {} : { content: contentFromAdk(raw['content'] as Raw) }),
      ...(usage?.['prompt_token_count'] == null
        ? {}
        : { usage: { promptTokens: usage['prompt_token_count'] as number } }),
      actions: {
        stateDelta: (actions['state_delta'] as Raw | undefined) ?? {},
        artifactDelta: {},
        ...(actions['skip_summarization'] === true ? { skipSummarization: true } : {}),
        ...(typeof actions['rewind_before_invocation_id'] === 'string'
          ? { rewindBeforeInvocationId: actions['rewind_before_invocation_id'] }
          : {}),
        ...(actions['requested_tool_confirmations'] == null
          ? {}
          : { requestedToolConfirmations: actions['requested_tool_confirmations'] as Raw }),
        ...(actions['requested_auth_configs'] == null
          ? {}
          : { requestedAuthConfigs: actions['requested_auth_configs'] as Raw }),
        ...(compaction === undefined
          ? {}
          : {
              compaction: {
                startTimestamp: compaction['start_timestamp'] as number,
                endTimestamp: compaction['end_timestamp'] as number,
                compactedContent: contentFromAdk(compaction['compacted_content'] as Raw),
              },
            }),
      },
    };
  });
}
