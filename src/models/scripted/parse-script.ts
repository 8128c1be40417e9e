import { ValidationError } from '../../contracts/errors/validation-error.js';
import { readContent } from '../../engine/session/decode-content.js';
import { JsonReader, joinPath } from '../../engine/util/json-reader.js';
import { CONDITION_SCHEMAS, RESPONSE_SCHEMAS, USAGE_FIELDS } from './script-schema.js';
import type { RuleCondition, Script, ScriptedCall, ScriptedResponse, ScriptRule } from './script.js';

const RESPONSE_FIELDS = Object.keys(RESPONSE_SCHEMAS);
const CONDITION_FIELDS = Object.keys(CONDITION_SCHEMAS);

/** A script from its file form: a list of responses, or `{ responses, rules, fallback }`. */
export function parseScript(value: unknown, filename: string): Script {
  const reader = new JsonReader();
  let script: Script;
  if (Array.isArray(value)) {
    script = { responses: readResponses(reader, value, '') };
  } else {
    const record = reader.object(value, '', 'a list of responses, or { responses, rules, fallback }') ?? {};
    reader.keys(record, '', ['responses', 'rules', 'fallback']);
    script = {};
    if (record['responses'] !== undefined)
      script.responses = readResponses(reader, reader.array(record['responses'], 'responses') ?? [], 'responses');
    if (record['rules'] !== undefined)
      script.rules = (reader.array(record['rules'], 'rules') ?? []).flatMap(
        (item, index) => readRule(reader, item, joinPath('rules', index)) ?? [],
      );
    if (record['fallback'] !== undefined) {
      const fallback = readResponse(reader, record['fallback'], 'fallback');
      if (fallback !== undefined) script.fallback = fallback;
    }
  }
  if (reader.issues.length > 0) throw new ValidationError({ subject: `script ${filename}`, issues: reader.issues });
  return script;
}

function readResponses(reader: JsonReader, list: unknown[], path: string): ScriptedResponse[] {
  return list.flatMap((item, index) => readResponse(reader, item, joinPath(path, index)) ?? []);
}

function readRule(reader: JsonReader, value: unknown, path: string): ScriptRule | undefined {
  const record = reader.object(value, path, 'a rule: { when, respond, times }');
  if (record === undefined) return undefined;
  reader.keys(record, path, ['when', 'respond', 'times']);
  const respond = readResponse(reader, record['respond'], joinPath(path, 'respond'));
  const times = reader.number(record, 'times', path, { optional: true, integer: true, min: 1 });
  let when: RuleCondition | undefined;
  if (record['when'] !== undefined) {
    const condition = reader.object(record['when'], joinPath(path, 'when'));
    if (condition !== undefined) {
      reader.keys(condition, joinPath(path, 'when'), CONDITION_FIELDS);
      const at = joinPath(path, 'when');
      when = {};
      for (const key of [
        'agent',
        'lastUserText',
        'lastUserMatches',
        'systemContains',
        'requestContains',
        'requestLacks',
        'afterToolResponse',
        'toolResultContains',
        'hasTool',
      ] as const) {
        const text = reader.string(condition, key, at, { optional: true });
        if (text !== undefined) when[key] = text;
      }
      for (const key of ['call', 'agentCall'] as const) {
        const number = reader.number(condition, key, at, { optional: true, integer: true, min: 1 });
        if (number !== undefined) when[key] = number;
      }
      if (condition['state'] !== undefined) {
        const state = reader.object(
          condition['state'],
          joinPath(at, 'state'),
          'a mapping of state keys to the values they must hold',
        );
        if (state !== undefined) when.state = state;
      }
      if (when.lastUserMatches !== undefined) {
        try {
          new RegExp(when.lastUserMatches, 'u');
        } catch (error) {
          reader.issue(joinPath(at, 'lastUserMatches'), `not a valid regular expression (${(error as Error).message})`);
        }
      }
    }
  }
  if (respond === undefined) return undefined;
  return { respond, ...(when === undefined ? {} : { when }), ...(times === undefined ? {} : { times }) };
}

function readResponse(reader: JsonReader, value: unknown, path: string): ScriptedResponse | undefined {
  const record = reader.object(value, path, 'a response: { text, functionCall, … }');
  if (record === undefined) return undefined;
  reader.keys(record, path, RESPONSE_FIELDS);
  const response: ScriptedResponse = {};
  const text = reader.string(record, 'text', path, { optional: true });
  const thought = reader.string(record, 'thought', path, { optional: true });
  const finishReason = reader.string(record, 'finishReason', path, { optional: true });
  if (text !== undefined) response.text = text;
  if (thought !== undefined) response.thought = thought;
  if (finishReason !== undefined) response.finishReason = finishReason;
  if (record['functionCall'] !== undefined) {
    const call = readCall(reader, record['functionCall'], joinPath(path, 'functionCall'));
    if (call !== undefined) response.functionCall = call;
  }
  if (record['functionCalls'] !== undefined) {
    response.functionCalls = (reader.array(record['functionCalls'], joinPath(path, 'functionCalls')) ?? []).flatMap(
      (item, index) => readCall(reader, item, joinPath(joinPath(path, 'functionCalls'), index)) ?? [],
    );
  }
  if (record['content'] !== undefined) {
    const content = readContent(reader, record['content'], joinPath(path, 'content'));
    if (content !== undefined) response.content = content;
  }
  if (record['usage'] !== undefined) {
    const usage = reader.object(record['usage'], joinPath(path, 'usage'));
    if (usage !== undefined) {
      reader.keys(usage, joinPath(path, 'usage'), USAGE_FIELDS);
      response.usage = {};
      for (const key of ['promptTokens', 'outputTokens', 'cachedTokens', 'totalTokens'] as const) {
        const count = reader.number(usage, key, joinPath(path, 'usage'), { optional: true, integer: true, min: 0 });
        if (count !== undefined) response.usage[key] = count;
      }
    }
  }
  if (record['error'] !== undefined) {
    const error = reader.object(record['error'], joinPath(path, 'error'));
    const code = error === undefined ? undefined : reader.string(error, 'code', joinPath(path, 'error'));
    const message = error === undefined ? undefined : reader.string(error, 'message', joinPath(path, 'error'));
    if (code !== undefined && message !== undefined) response.error = { code, message };
  }
  if (Object.keys(response).length === 0)
    reader.issue(path, 'says nothing: give text, functionCall(s), content or error');
  return response;
}

function readCall(reader: JsonReader, value: unknown, path: string): ScriptedCall | undefined {
  const record = reader.object(value, path, 'a call: { name, args }');
  if (record === undefined) return undefined;
  reader.keys(record, path, ['name', 'args', 'id']);
  const name = reader.string(record, 'name', path, { nonEmpty: true });
  const id = reader.string(record, 'id', path, { optional: true });
  const args = record['args'] === undefined ? undefined : reader.object(record['args'], joinPath(path, 'args'));
  if (name === undefined) return undefined;
  return { name, ...(args === undefined ? {} : { args }), ...(id === undefined ? {} : { id }) };
}
