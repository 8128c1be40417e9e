import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { Event } from '../../src/contracts/event.js';
import type { Model, ModelResponse } from '../../src/contracts/model.js';
import type { Runner, RunInput } from '../../src/engine/runner/runner.js';

/** The error `run` throws (or rejects with); fails the test when it does not throw. */
export async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, but none was thrown');
}

/** A typed agentctx error (never a TypeError, RangeError…) with this code, whose message and hint match. */
export function expectTyped(
  error: unknown,
  expected: { code?: string; message: RegExp; hint?: RegExp; name?: string },
): void {
  expect(AgentctxError.isInstance(error), `not an AgentctxError: ${String(error)}`).toBe(true);
  const typed = error as AgentctxError;
  if (expected.name !== undefined) expect(typed.name).toBe(expected.name);
  if (expected.code !== undefined) expect(typed.code).toBe(expected.code);
  expect(typed.message).toMatch(expected.message);
  if (expected.hint !== undefined) expect(typed.hint ?? '').toMatch(expected.hint);
}

/** Temporary folders removed by `cleanup`; `file` writes a file (and its folders) inside one. */
export function scratch() {
  const dirs: string[] = [];
  return {
    async dir(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), 'agentctx-reliability-'));
      dirs.push(dir);
      return dir;
    },
    async files(files: Record<string, string>): Promise<string> {
      const dir = await this.dir();
      for (const [name, text] of Object.entries(files)) {
        await mkdir(dirname(join(dir, name)), { recursive: true });
        await writeFile(join(dir, name), text);
      }
      return dir;
    },
    async cleanup(): Promise<void> {
      for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs one invocation to its end and returns the events it yielded. */
export async function turn(
  runner: Runner,
  input: Omit<RunInput, 'userId' | 'sessionId'> & Partial<RunInput>,
): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', ...input })) events.push(event);
  return events;
}

/** A model that answers from a list (anything, even what no real model would send) and keeps what it was asked. */
export function listModel(responses: unknown[], provider = 'test'): Model & { requests: unknown[] } {
  const requests: unknown[] = [];
  return {
    specificationVersion: 'v1',
    provider,
    modelId: 'list',
    requests,
    async generate(request) {
      requests.push(request);
      if (responses.length === 0) return { content: { role: 'model', parts: [{ text: 'done' }] } };
      return responses.shift() as ModelResponse;
    },
  };
}
