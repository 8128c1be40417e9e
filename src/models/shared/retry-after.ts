/** The part of a response's headers that Retry-After is read from (fetch's `Headers`, or anything like it). */
export type HeaderReader = { get(name: string): string | null };

/**
 * Seconds a provider asked to wait: `retry-after-ms` (OpenAI's and Anthropic's, finer), else `retry-after` as a number
 * of seconds or an HTTP date. Undefined when neither is there or readable; never negative.
 */
export function retryAfterSeconds(headers: HeaderReader | undefined): number | undefined {
  const ms = number(headers?.get('retry-after-ms'));
  if (ms !== undefined) return Math.max(0, ms / 1000);
  const value = headers?.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  const seconds = number(value);
  if (seconds !== undefined) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function number(text: string | null | undefined): number | undefined {
  if (text == null || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
