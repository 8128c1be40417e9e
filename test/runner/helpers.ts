import type { Event } from '../../src/contracts/event.js';
import type { Runner, RunInput } from '../../src/engine/runner/runner.js';
import { createRunner } from '../../src/presets/create-runner.js';

/** A clock and id source that make runs repeatable. */
export function testClock(): { now: () => number; newId: () => string } {
  let time = 1_700_000_000;
  let id = 0;
  return { now: () => (time += 0.001), newId: () => `id${++id}` };
}

/** Runs one invocation to the end and returns its events. */
export async function collect(
  runner: Runner,
  input: Omit<RunInput, 'userId' | 'sessionId'> & Partial<RunInput>,
): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: 'u1', sessionId: 's1', ...input })) events.push(event);
  return events;
}

/** One line per event: who, and what (text, call, result, error). */
export function describeEvents(events: readonly Event[]): string[] {
  return events.map((event) => {
    if (event.errorCode !== undefined) return `${event.author} ERROR ${event.errorCode}`;
    const parts = (event.content?.parts ?? []).map((part) => {
      if ('text' in part) return part.thought === true ? `(thought) ${part.text}` : part.text;
      if ('functionCall' in part)
        return `call ${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})`;
      if ('functionResponse' in part)
        return `${part.functionResponse.name} → ${JSON.stringify(part.functionResponse.response)}`;
      return '[data]';
    });
    return `${event.author}${event.partial === true ? ' (partial)' : ''}: ${parts.join(' | ')}`;
  });
}

/** A runner on the repeatable clock, with session s1 of user u1 made. */
export async function runnerWithSession(options: Parameters<typeof createRunner>[0]): Promise<Runner> {
  const runner = createRunner({ ...testClock(), ...options });
  await runner.createSession({ userId: 'u1', sessionId: 's1' });
  return runner;
}
