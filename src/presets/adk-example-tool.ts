import type { Extension } from '../contracts/agent.js';
import type { Content, Part } from '../contracts/content.js';
import { JsonReader, joinPath, isPlainRecord } from '../engine/util/json-reader.js';
import { adkExampleTool, type AdkExample } from '../features/adk-tools/example-tool.js';

/**
 * ADK's `{ name: ExampleTool, args: { examples: [...] } }` in an agent file: the examples as pydantic reads an
 * `Example` (`input`, `output`; parts in snake_case or camelCase). A dotted name in place of the list names an example
 * provider object in Python code, which runs only in ADK: refused, saying so.
 */
export function readExampleToolEntry(
  reader: JsonReader,
  item: Record<string, unknown>,
  path: string,
  field: string,
): Extension | undefined {
  reader.keys(item, path, ['name', 'args']);
  const args = reader.object(item['args'], joinPath(path, 'args'), '{ examples: [{ input, output }, …] }');
  if (args === undefined) return undefined;
  reader.keys(args, joinPath(path, 'args'), ['examples']);
  return exampleToolOf(reader, args['examples'], joinPath(joinPath(path, 'args'), 'examples'), field);
}

/** An `ExampleTool` made from its examples, each read as ADK reads an `Example`; problems go to `reader` at `path`. */
export function exampleToolOf(reader: JsonReader, value: unknown, path: string, field: string): Extension | undefined {
  if (typeof value === 'string')
    return reader.issue(
      path,
      `'${value}' names an example provider (a BaseExampleProvider object in Python code), which agentctx does not run; list the examples in the file ({ input, output })`,
    );
  const list = reader.array(value, path);
  if (list === undefined) return undefined;
  const examples: AdkExample[] = [];
  list.forEach((item, index) => {
    const at = joinPath(path, index);
    const record = reader.object(item, at, 'an example: { input: <content>, output: [<content>, …] }');
    if (record === undefined) return;
    reader.keys(record, at, ['input', 'output']);
    const input = record['input'] == null ? undefined : readContent(reader, record['input'], joinPath(at, 'input'));
    const output = reader.array(record['output'] ?? [], joinPath(at, 'output')) ?? [];
    examples.push({
      input,
      output: output.flatMap((content, n) => readContent(reader, content, joinPath(joinPath(at, 'output'), n)) ?? []),
    });
  });
  return adkExampleTool(examples, field);
}

// A google-genai Content as an example holds one: its role and the parts the examples' text is made of (text,
// function calls and responses); other kinds of part print nothing in ADK's text and are passed over.
function readContent(reader: JsonReader, value: unknown, path: string): Content | undefined {
  const record = reader.object(value, path, 'a content: { role, parts: [...] }');
  if (record === undefined) return undefined;
  const role = record['role'] === 'model' ? 'model' : 'user';
  const parts: Part[] = [];
  (reader.array(record['parts'] ?? [], joinPath(path, 'parts')) ?? []).forEach((item, index) => {
    const at = joinPath(joinPath(path, 'parts'), index);
    const part = reader.object(item, at, 'a part');
    if (part === undefined) return;
    const call = part['function_call'] ?? part['functionCall'];
    const response = part['function_response'] ?? part['functionResponse'];
    if (isPlainRecord(call)) {
      const name = reader.string(call, 'name', at);
      const args = call['args'] == null ? undefined : reader.object(call['args'], joinPath(at, 'args'));
      if (name !== undefined) parts.push({ functionCall: { name, ...(args === undefined ? {} : { args }) } });
    } else if (isPlainRecord(response)) {
      const name = reader.string(response, 'name', at);
      const id = typeof response['id'] === 'string' ? response['id'] : undefined;
      const body = response['response'] == null ? undefined : reader.object(response['response'], at);
      if (name !== undefined)
        parts.push({
          functionResponse: {
            ...(id === undefined ? {} : { id }),
            name,
            ...(body === undefined ? {} : { response: body }),
          },
        });
    } else if (typeof part['text'] === 'string') parts.push({ text: part['text'] });
  });
  return { role, parts };
}
