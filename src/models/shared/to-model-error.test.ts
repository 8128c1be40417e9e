import { describe, expect, it } from 'vitest';
import { ModelError } from '../../contracts/errors/model-error.js';
import { toModelError, type ModelErrorContext } from './to-model-error.js';

const context: ModelErrorContext = { provider: 'test' };
const aborted = (reason?: unknown) => {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
};
const withCause = (message: string, cause: unknown) => new Error(message, { cause });
const codeError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code });

describe('toModelError', () => {
  it('passes a ModelError on as it is, before anything else', () => {
    const error = new ModelError({ provider: 'other', message: 'm', retryable: true });
    expect(toModelError(error, { ...context, signal: aborted(), classify: () => 'cancelled' })).toBe(error);
  });

  it('makes an aborted call `the call was cancelled`, unless the abort reason is a ModelError (the retry timeout)', () => {
    const cause = new Error('This operation was aborted');
    expect(
      toModelError(cause, {
        ...context,
        signal: aborted(new Error('bye')),
        classify: () => ({ message: 'ignored', status: 500 }),
      }),
    ).toMatchObject({
      message: 'test: the call was cancelled',
      retryable: false,
      cause,
    });
    const timeout = new ModelError({ provider: 'test', message: 'no answer within 5 ms', retryable: true });
    expect(toModelError(cause, { ...context, signal: aborted(timeout) })).toBe(timeout);
    expect(toModelError(cause, { ...context, signal: new AbortController().signal })).toMatchObject({
      message: 'test: This operation was aborted',
    });
  });

  it("uses the provider's reading: status decides retrying unless it says; Retry-After comes from its headers", () => {
    const read = (failure: NonNullable<ReturnType<NonNullable<ModelErrorContext['classify']>>>) =>
      toModelError(new Error('sdk'), { ...context, classify: () => failure });
    expect(
      read({ status: 503, message: 'busy', headers: new Headers({ 'retry-after': '3' }), hint: 'wait' }),
    ).toMatchObject({
      message: 'test 503: busy',
      providerMessage: 'busy',
      status: 503,
      retryable: true,
      retryAfterSeconds: 3,
      hint: 'wait',
    });
    expect(read({ status: 400, message: 'bad' })).toMatchObject({ retryable: false, retryAfterSeconds: undefined });
    expect(read({ message: 'overloaded_error: later', retryable: true })).toMatchObject({
      status: undefined,
      retryable: true,
    });
    expect(read({ message: 'no status' })).toMatchObject({ retryable: false });
    expect(read({ status: 429, message: 'slow', retryAfterSeconds: 37 })).toMatchObject({ retryAfterSeconds: 37 });
    expect(read('cancelled')).toMatchObject({ message: 'test: the call was cancelled', retryable: false });
  });

  it('finds a lost connection through the cause chain, and lets the provider say it', () => {
    const refused = withCause('fetch failed', codeError('ECONNREFUSED'));
    expect(toModelError(refused, context)).toMatchObject({
      message: 'test: the connection failed: fetch failed: connect ECONNREFUSED 127.0.0.1:9',
      retryable: true,
    });
    const deep = withCause('request failed', withCause('socket hang up', { code: 'UND_ERR_SOCKET' }));
    expect(
      toModelError(deep, { ...context, connectionFailure: () => ({ message: 'server gone', hint: 'Is it running?' }) }),
    ).toMatchObject({
      message: 'test: server gone',
      hint: 'Is it running?',
      retryable: true,
    });
    expect(toModelError(new TypeError('terminated'), context)).toMatchObject({ retryable: true });
    expect(toModelError(new Error('sdk connection error'), { ...context, classify: () => 'connection' })).toMatchObject(
      { retryable: true },
    );
  });

  it('does not loop on a cause chain that points back at itself', () => {
    const error: Error & { cause?: unknown } = new Error('odd');
    error.cause = error;
    expect(toModelError(error, context)).toMatchObject({ message: 'test: odd', retryable: false });
  });

  it('reports anything else as it is, not retryable', () => {
    expect(toModelError('a string', context)).toMatchObject({ message: 'test: a string', retryable: false });
    const described = toModelError(withCause('outer', new Error('inner')), {
      ...context,
      describe: (error) => `described ${String(error)}`,
    });
    expect(described.message).toBe('test: described Error: outer');
  });
});
