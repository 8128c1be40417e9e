import { ModelError } from '../../contracts/errors/model-error.js';
import type { ModelResponse } from '../../contracts/model.js';
import { readContent } from '../session/decode-content.js';
import { JsonReader } from '../util/json-reader.js';

/**
 * The model's response if its shape is one the runner can store and build the next request from; otherwise a
 * `ModelError` listing what is wrong, so a broken adapter or custom model ends the invocation with an error event
 * instead of a crash or an event no later request could be built from.
 */
export function checkModelResponse(value: unknown, provider: string): ModelResponse {
  const reader = new JsonReader();
  const record = reader.object(value, '', 'a response object ({ content?, usage?, errorCode?, … })');
  if (record !== undefined && record['content'] != null) readContent(reader, record['content'], 'content');
  for (const key of ['errorCode', 'errorMessage', 'finishReason'] as const) {
    if (record !== undefined && record[key] != null && typeof record[key] !== 'string')
      reader.issue(key, `expected a string, got ${typeof record[key]}`);
  }
  if (reader.issues.length === 0) return value as ModelResponse;
  const shown = reader.issues
    .slice(0, 3)
    .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`));
  return failMalformed(
    provider,
    `${shown.join('; ')}${reader.issues.length > 3 ? ` (and ${reader.issues.length - 3} more)` : ''}`,
  );
}

function failMalformed(provider: string, problems: string): never {
  throw new ModelError({
    provider,
    message: `the model's response is malformed: ${problems}`,
    retryable: false,
    hint: 'A model must return { content: { role, parts } } with parts the Content type allows; fix the adapter or custom model.',
  });
}
