import { ValidationError } from '../../contracts/errors/validation-error.js';
import { JsonReader } from '../../engine/util/json-reader.js';
import { HttpError } from '../http-error.js';
import { appRunner, sessionNotFound, type AdkHandler } from './adk-context.js';

/**
 * `PATCH /apps/{app}/users/{user}/memory` with `{ sessionId }` (ADK's `UpdateMemoryRequest`, `session_id` too) → 200
 * `null`: the session is added to the app's memory, as ADK's api_server does. 400 when the app has no memory service
 * or the body names no session; 404 for a session that is not there.
 */
export const patchAdkMemory: AdkHandler = async (context) => {
  const reader = new JsonReader();
  const record = reader.object(await context.body(), '', 'a JSON object ({ sessionId })');
  if (record !== undefined) reader.keys(record, '', ['sessionId', 'session_id']);
  const sessionId = record === undefined ? undefined : (record['sessionId'] ?? record['session_id']);
  if (typeof sessionId !== 'string' || sessionId === '')
    reader.issue('sessionId', 'is required: the id of the session to remember');
  if (reader.issues.length > 0) throw new ValidationError({ subject: 'request body', issues: reader.issues });
  const runner = appRunner(context);
  if (runner.memory === undefined)
    throw new HttpError(400, 'memory_not_configured', 'Memory service is not configured.', {
      hint: 'Give the runner a memory service (createRunner({ memory })); agentctx serve gives every app its store’s.',
    });
  const session = await runner.sessions.getSession({
    appName: runner.appName,
    userId: context.params['user'] ?? '',
    sessionId: sessionId as string,
  });
  if (session === undefined) throw sessionNotFound(sessionId as string);
  await runner.memory.addSessionToMemory(session);
  return { status: 200, body: null };
};
