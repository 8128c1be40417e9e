import type { Content, Part } from '../contracts/content.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import type { Event } from '../contracts/event.js';
import { pausedCalls, type PausedCall } from '../engine/runner/paused-calls.js';

const CONFIRMATION = 'adk_request_confirmation';

/**
 * The message `--answer <call-id>=<json>` sends: a function response to each call the session waits on (a
 * long-running tool's result; for a confirmation request `true`, `false`, or ADK's `{ confirmed, payload }`), then
 * the `--message` text when there is one.
 */
export function answerMessage(events: readonly Event[], answers: readonly string[], text: string | undefined): Content {
  const waiting = new Map(pausedCalls(events).map((paused) => [paused.call.id, paused]));
  // A long-running call answered already may get another answer (ADK takes progress updates, then the result).
  const answerable = new Map(longRunningCalls(events).map((paused) => [paused.call.id, paused]));
  const parts: Part[] = answers.map((answer) => {
    const at = answer.indexOf('=');
    if (at <= 0) throw new UsageError(`--answer takes <call-id>=<json>, got '${answer}'.`, waitingHint(waiting));
    const id = answer.slice(0, at);
    const paused = answerable.get(id);
    if (paused === undefined || (paused.call.name === CONFIRMATION && !waiting.has(id)))
      throw new UsageError(`The session waits for no answer to a call '${id}'.`, waitingHint(waiting));
    let value: unknown;
    try {
      value = JSON.parse(answer.slice(at + 1));
    } catch {
      throw new UsageError(
        `--answer ${id}: '${answer.slice(at + 1)}' is not JSON.`,
        `Quote it for the shell: --answer '${id}={"status": "approved"}'.`,
      );
    }
    return { functionResponse: { id, name: paused.call.name, response: responseOf(paused, value) } };
  });
  return { role: 'user', parts: text === undefined ? parts : [...parts, { text }] };
}

function longRunningCalls(events: readonly Event[]): PausedCall[] {
  return events.flatMap((event) => {
    const ids = new Set(event.longRunningToolIds ?? []);
    return (event.content?.parts ?? []).flatMap((part) =>
      'functionCall' in part && part.functionCall.id !== undefined && ids.has(part.functionCall.id)
        ? [{ event, call: part.functionCall as PausedCall['call'] }]
        : [],
    );
  });
}

function responseOf(paused: PausedCall, value: unknown): Record<string, unknown> {
  if (paused.call.name === CONFIRMATION && typeof value === 'boolean') return { confirmed: value };
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { result: value };
}

function waitingHint(waiting: ReadonlyMap<string, PausedCall>): string {
  if (waiting.size === 0) return 'Nothing in this session waits for an answer.';
  return `It waits for: ${[...waiting.values()].map(describe).join('; ')}.`;
}

function describe({ call }: PausedCall): string {
  if (call.name !== CONFIRMATION) return `${call.name} (call ${call.id})`;
  const original = (call.args?.['originalFunctionCall'] ?? {}) as { name?: string };
  return `confirmation of ${original.name ?? 'a tool call'} (call ${call.id})`;
}

/** What `run` prints when a turn paused: each call waiting, and the command that answers it. */
export function pausedLines(events: readonly Event[], command: string): string[] {
  return pausedCalls(events).map((paused) => {
    const example = paused.call.name === CONFIRMATION ? 'true' : `'{"status": "done"}'`;
    const hint = (paused.call.args?.['toolConfirmation'] as { hint?: string } | undefined)?.hint;
    return `paused: ${describe(paused)} waits for an answer${hint === undefined ? '' : ` (${hint})`}; answer with: ${command} --answer ${paused.call.id}=${example}`;
  });
}

/**
 * On a terminal: asks the person about each confirmation the session waits on (`Approve transfer({"amount":500})?`)
 * and gives the message that answers them, or undefined when none waits. Long-running calls are answered with
 * `--answer`, whose command the paused lines print.
 */
export function askConfirmations(events: readonly Event[], ask: (question: string) => boolean): Content | undefined {
  const parts: Part[] = pausedCalls(events)
    .filter((paused) => paused.call.name === CONFIRMATION)
    .map((paused) => {
      const original = (paused.call.args?.['originalFunctionCall'] ?? {}) as { name?: string; args?: unknown };
      const hint = (paused.call.args?.['toolConfirmation'] as { hint?: string } | undefined)?.hint;
      const confirmed = ask(
        `${hint === undefined || hint === '' ? '' : `${hint}\n`}Approve ${original.name ?? 'the call'}(${JSON.stringify(original.args ?? {})})? [y/N] `,
      );
      return { functionResponse: { id: paused.call.id, name: CONFIRMATION, response: { confirmed } } };
    });
  return parts.length === 0 ? undefined : { role: 'user', parts };
}
