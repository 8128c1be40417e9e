import type { Event } from '../../contracts/event.js';
import type { Model, ModelResponse, StablePrefix } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { PendingCall } from './call-log.js';
import type { Deadline } from './deadline.js';
import type { AgentRun } from './invocation.js';

/**
 * Calls the model, streaming when the runner streams: partial events go to the caller but are never stored. The
 * deadline covers the whole call; when it passes, the call is abandoned even if the model ignores its signal. The
 * pending record is told of the wire and of the first streamed piece.
 */
export async function* callModel(
  run: AgentRun,
  model: Model,
  request: LlmRequest,
  stablePrefix: StablePrefix,
  deadline: Deadline,
  pending: PendingCall,
): AsyncGenerator<Event, ModelResponse> {
  const { invocation, node, branch } = run;
  const { appName, userId, id: sessionId } = invocation.session;
  const options = {
    signal: deadline.signal,
    agentName: node.name,
    wire: pending.wire,
    readState: (key: string) =>
      Object.hasOwn(invocation.session.state, key) ? invocation.session.state[key] : undefined,
    stablePrefix,
    session: { appName, userId, sessionId },
  };
  if (!invocation.settings.streaming || model.stream === undefined)
    return deadline.race(model.generate(request, options));
  let final: ModelResponse | undefined;
  const chunks = model.stream(request, options)[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (let next = await deadline.race(chunks.next()); next.done !== true; next = await deadline.race(chunks.next())) {
      const chunk = next.value;
      pending.firstChunk();
      if (!chunk.partial) {
        const { partial: _partial, ...response } = chunk;
        final = response;
        continue;
      }
      if (chunk.content !== undefined) {
        yield invocation.event({
          author: node.name,
          ...(branch === undefined ? {} : { branch }),
          content: chunk.content,
          partial: true,
        });
      }
    }
    finished = true;
  } finally {
    // A stream left early is closed, as `for await` would; an abandoned one is told to stop, without waiting for it.
    if (!finished) {
      const closing = Promise.resolve(chunks.return?.()).catch(() => undefined);
      if (!deadline.expired) await closing;
    }
  }
  if (final === undefined) throw new Error('the stream ended without a complete response');
  return final;
}
