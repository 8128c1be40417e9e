import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentctxError } from './agentctx-error.js';
import { ConflictError } from './conflict-error.js';
import { ModelError } from './model-error.js';
import { NotFoundError } from './not-found-error.js';
import { ProcessorError } from './processor-error.js';
import { TemplateError } from './template-error.js';
import { UnavailableError } from './unavailable-error.js';
import { UsageError } from './usage-error.js';
import { ValidationError } from './validation-error.js';

// Two installs of agentctx are two copies of these files, each with its own classes. Each copy here is the whole
// errors folder in its own temporary directory, loaded as a module graph of its own.
const here = {
  AgentctxError,
  ConflictError,
  ModelError,
  NotFoundError,
  ProcessorError,
  TemplateError,
  UnavailableError,
  UsageError,
  ValidationError,
};
type Errors = typeof here;

const copies: Errors[] = [];
let root = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentctx-errors-'));
  const folder = new URL('.', import.meta.url).pathname;
  const sources = (await readdir(folder)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  for (const copy of ['a', 'b']) {
    const modules: object[] = [];
    for (const name of sources) {
      await cp(join(folder, name), join(root, copy, name));
      modules.push((await import(pathToFileURL(join(root, copy, name)).href)) as object);
    }
    copies.push(Object.assign({}, ...modules) as Errors);
  }
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('error classes across copies of the package', () => {
  it('loads real copies: the classes differ, so plain prototype checks would fail', () => {
    const [a, b] = copies as [Errors, Errors];
    expect(a.ModelError).not.toBe(b.ModelError);
    expect(a.AgentctxError).not.toBe(here.AgentctxError);
    expect(
      Object.prototype.isPrototypeOf.call(
        b.ModelError.prototype,
        new a.ModelError({ provider: 'p', message: 'm', retryable: false }),
      ),
    ).toBe(false);
  });

  it('recognises an error from copy A as an instance of its class and every class above it in copy B', () => {
    const [a, b] = copies as [Errors, Errors];
    const error = new a.ModelError({ provider: 'openai', status: 429, message: 'slow down', retryable: true });
    expect(error instanceof b.ModelError).toBe(true);
    expect(error instanceof b.AgentctxError).toBe(true);
    expect(b.ModelError.isInstance(error)).toBe(true);
    expect(b.AgentctxError.isInstance(error)).toBe(true);
    expect(error instanceof here.ModelError && error.providerMessage).toBe('slow down');
    expect(error).toBeInstanceOf(Error);
  });

  it('does not take a base-class instance, a sibling class or a plain Error for a subclass', () => {
    const [a, b] = copies as [Errors, Errors];
    const base = new a.AgentctxError({ code: 'usage', message: 'm' });
    expect(base instanceof b.ModelError).toBe(false);
    expect(b.ModelError.isInstance(base)).toBe(false);
    expect(base instanceof b.AgentctxError).toBe(true);
    const conflict = new a.ConflictError({ code: 'already_exists', message: 'taken' });
    expect(conflict instanceof b.ConflictError).toBe(true);
    expect(conflict instanceof b.NotFoundError || conflict instanceof b.ModelError).toBe(false);
    for (const value of [new Error('plain'), { code: 'usage' }, null, undefined, 'ModelError']) {
      expect(value instanceof b.AgentctxError, String(value)).toBe(false);
      expect(b.AgentctxError.isInstance(value)).toBe(false);
    }
  });

  it('marks every class of the chain, including each subclass of the errors folder', () => {
    const [a, b] = copies as [Errors, Errors];
    const made = [
      new a.ConflictError({ code: 'stale_session', message: 'm' }),
      new a.NotFoundError({ resource: 'session', id: 's', message: 'm' }),
      new a.ProcessorError({ processor: 'p', agent: 'x', cause: new Error('inner') }),
      new a.TemplateError({ code: 'missing_state_key', key: 'k', message: 'm', hint: 'h' }),
      new a.UsageError('m'),
      new a.ValidationError({ subject: 'event', issues: [] }),
      new a.ModelError({ provider: 'p', message: 'm', retryable: false }),
      new a.UnavailableError({ store: 'postgres', reason: 'disconnected', message: 'm' }),
    ];
    const classes = [
      b.ConflictError,
      b.NotFoundError,
      b.ProcessorError,
      b.TemplateError,
      b.UsageError,
      b.ValidationError,
      b.ModelError,
      b.UnavailableError,
    ];
    made.forEach((error, index) => {
      expect(classes.map((type) => error instanceof type)).toEqual(classes.map((_type, other) => other === index));
      expect(error instanceof b.AgentctxError).toBe(true);
      expect(error.name).toBe(classes[index]?.errorName);
    });
  });

  it('gives a subclass written outside agentctx its own marker, so it does not accept its parent', () => {
    const [a, b] = copies as [Errors, Errors];
    class QuotaError extends a.ModelError {}
    const quota = new QuotaError({ provider: 'p', message: 'm', retryable: true });
    expect(quota instanceof QuotaError && quota instanceof b.ModelError && quota.name === 'QuotaError').toBe(true);
    expect(new b.ModelError({ provider: 'p', message: 'm', retryable: true }) instanceof QuotaError).toBe(false);
  });

  it('still knows errors marked by releases before per-class markers as AgentctxErrors, and only as those', () => {
    const [, b] = copies as [Errors, Errors];
    const older = Object.defineProperty(new Error('old'), Symbol.for('agentctx.error'), { value: true });
    expect(b.AgentctxError.isInstance(older) && older instanceof b.AgentctxError).toBe(true);
    expect(older instanceof b.ModelError).toBe(false);
  });
});
