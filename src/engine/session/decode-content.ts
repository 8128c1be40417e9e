import type { Content, Part, ProviderMetadata } from '../../contracts/content.js';
import { setOwn } from '../util/copy-value.js';
import { JsonReader, describeValue, joinPath } from '../util/json-reader.js';

const PART_KINDS = [
  'text',
  'functionCall',
  'functionResponse',
  'inlineData',
  'fileData',
  'executableCode',
  'codeExecutionResult',
] as const;

/** Reads a message in its JSON form, reporting problems to `reader`. */
export function readContent(reader: JsonReader, value: unknown, path: string): Content | undefined {
  const record = reader.object(value, path, 'a message ({ role, parts })');
  if (record === undefined) return undefined;
  reader.keys(record, path, ['role', 'parts']);
  const role = record['role'];
  if (role !== 'user' && role !== 'model') {
    reader.issue(joinPath(path, 'role'), `expected 'user' or 'model', got ${describeValue(role)}`);
  }
  const list = reader.array(record['parts'], joinPath(path, 'parts'));
  if (list === undefined || (role !== 'user' && role !== 'model')) return undefined;
  const parts: Part[] = [];
  list.forEach((item, index) => {
    const part = readPart(reader, item, joinPath(joinPath(path, 'parts'), index));
    if (part !== undefined) parts.push(part);
  });
  return { role, parts };
}

export function readPart(reader: JsonReader, value: unknown, path: string): Part | undefined {
  const record = reader.object(value, path, 'a part');
  if (record === undefined) return undefined;
  reader.keys(record, path, [...PART_KINDS, 'thought', 'thoughtSignature', 'providerMetadata']);
  const kinds = PART_KINDS.filter((kind) => record[kind] !== undefined && record[kind] !== null);
  if (kinds.length !== 1) {
    const found = kinds.length === 0 ? 'none' : kinds.join(' and ');
    return reader.issue(path, `a part holds exactly one of ${PART_KINDS.join(', ')}; found ${found}`);
  }
  const signature = reader.string(record, 'thoughtSignature', path, { optional: true });
  const metadata = readProviderMetadata(reader, record['providerMetadata'], joinPath(path, 'providerMetadata'));
  const extras = {
    ...(signature === undefined ? {} : { thoughtSignature: signature }),
    ...(metadata === undefined ? {} : { providerMetadata: metadata }),
  };
  if (metadata !== undefined && kinds[0] !== 'text' && kinds[0] !== 'functionCall')
    return reader.issue(
      joinPath(path, 'providerMetadata'),
      'only a text or function call part carries provider metadata',
    );
  switch (kinds[0]) {
    case 'text': {
      const text = reader.string(record, 'text', path);
      const thought = reader.boolean(record, 'thought', path);
      if (text === undefined) return undefined;
      return { text, ...(thought === undefined ? {} : { thought }), ...extras };
    }
    case 'functionCall': {
      const call = readCallLike(reader, record['functionCall'], joinPath(path, 'functionCall'), 'args');
      if (call === undefined) return undefined;
      const { payload, ...rest } = call;
      const functionCall = payload === undefined ? rest : { ...rest, args: payload };
      const thought = reader.boolean(record, 'thought', path);
      return { functionCall, ...(thought === undefined ? {} : { thought }), ...extras };
    }
    case 'functionResponse': {
      const response = readCallLike(reader, record['functionResponse'], joinPath(path, 'functionResponse'), 'response');
      if (response === undefined) return undefined;
      const { payload, ...rest } = response;
      return { functionResponse: payload === undefined ? rest : { ...rest, response: payload } };
    }
    case 'inlineData':
      return readInlineData(reader, record['inlineData'], joinPath(path, 'inlineData'));
    case 'fileData':
      return readFileData(reader, record['fileData'], joinPath(path, 'fileData'));
    case 'executableCode': {
      const code = reader.object(record['executableCode'], joinPath(path, 'executableCode'));
      if (code === undefined) return undefined;
      reader.keys(code, joinPath(path, 'executableCode'), ['code', 'language']);
      const text = reader.string(code, 'code', joinPath(path, 'executableCode'));
      const language =
        reader.string(code, 'language', joinPath(path, 'executableCode'), { optional: true }) ?? 'PYTHON';
      return text === undefined ? undefined : { executableCode: { code: text, language } };
    }
    default: {
      const result = reader.object(record['codeExecutionResult'], joinPath(path, 'codeExecutionResult'));
      if (result === undefined) return undefined;
      reader.keys(result, joinPath(path, 'codeExecutionResult'), ['outcome', 'output']);
      const outcome = reader.string(result, 'outcome', joinPath(path, 'codeExecutionResult'));
      const output = reader.string(result, 'output', joinPath(path, 'codeExecutionResult'), { optional: true });
      if (outcome === undefined) return undefined;
      return { codeExecutionResult: output === undefined ? { outcome } : { outcome, output } };
    }
  }
}

// Provider name → a JSON object, kept as it is (its JSON is checked with the event's).
function readProviderMetadata(reader: JsonReader, value: unknown, path: string): ProviderMetadata | undefined {
  if (value === undefined) return undefined;
  const record = reader.object(value, path, 'an object of provider names to objects');
  if (record === undefined) return undefined;
  const metadata: ProviderMetadata = {};
  for (const [provider, entry] of Object.entries(record)) {
    const data = reader.object(entry, joinPath(path, provider), 'an object');
    // Own properties only: a provider named __proto__ stays a key.
    if (data !== undefined) setOwn(metadata, provider, data);
  }
  return metadata;
}

function readCallLike(
  reader: JsonReader,
  value: unknown,
  path: string,
  payloadKey: 'args' | 'response',
): { id?: string; name: string; payload?: Record<string, unknown> } | undefined {
  const record = reader.object(value, path);
  if (record === undefined) return undefined;
  reader.keys(record, path, ['id', 'name', payloadKey]);
  const id = reader.string(record, 'id', path, { optional: true });
  const name = reader.string(record, 'name', path, { nonEmpty: true });
  const raw = record[payloadKey];
  const payload = raw == null ? undefined : reader.object(raw, joinPath(path, payloadKey));
  if (name === undefined || (raw != null && payload === undefined)) return undefined;
  return { ...(id === undefined ? {} : { id }), name, ...(payload === undefined ? {} : { payload }) };
}

function readInlineData(reader: JsonReader, value: unknown, path: string): Part | undefined {
  const record = reader.object(value, path);
  if (record === undefined) return undefined;
  reader.keys(record, path, ['mimeType', 'data', 'displayName']);
  const mimeType = reader.string(record, 'mimeType', path, { nonEmpty: true });
  const data = reader.string(record, 'data', path);
  const displayName = reader.string(record, 'displayName', path, { optional: true });
  if (data !== undefined && !/^[A-Za-z0-9+/_-]*={0,2}$/.test(data))
    reader.issue(joinPath(path, 'data'), 'expected base64 text');
  if (mimeType === undefined || data === undefined) return undefined;
  return { inlineData: { mimeType, data, ...(displayName === undefined ? {} : { displayName }) } };
}

function readFileData(reader: JsonReader, value: unknown, path: string): Part | undefined {
  const record = reader.object(value, path);
  if (record === undefined) return undefined;
  reader.keys(record, path, ['fileUri', 'mimeType', 'displayName']);
  const fileUri = reader.string(record, 'fileUri', path, { nonEmpty: true });
  const mimeType = reader.string(record, 'mimeType', path, { optional: true });
  const displayName = reader.string(record, 'displayName', path, { optional: true });
  if (fileUri === undefined) return undefined;
  return {
    fileData: {
      fileUri,
      ...(mimeType === undefined ? {} : { mimeType }),
      ...(displayName === undefined ? {} : { displayName }),
    },
  };
}
