import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { artifactPart } from './adk-json.js';
import { pathSession, queryNumber, type AdkContext, type AdkHandler } from './adk-context.js';

/** `GET …/sessions/{id}/artifacts` → the names of the session's artifacts and the user's `user:` ones. */
export const listAdkArtifacts: AdkHandler = async (context) => {
  const { runner, key } = await artifactPlace(context);
  return { status: 200, body: runner.artifacts === undefined ? [] : await runner.artifacts.list(key) };
};

/** `GET …/artifacts/{name}[?version=N]` and `…/artifacts/{name}/versions/{N}` → the artifact as a `Part`. */
export const getAdkArtifact: AdkHandler = async (context) => {
  const { runner, key } = await artifactPlace(context);
  const filename = context.params['artifact'] ?? '';
  const version =
    context.params['version'] === undefined ? queryNumber(context, 'version') : versionOf(context.params['version']);
  if (version !== undefined && Number.isNaN(version)) {
    throw new ValidationError({
      subject: 'request',
      issues: [{ path: 'version', message: 'expected a version number from 0' }],
    });
  }
  const artifact = await runner.artifacts?.load({ ...key, filename, version });
  if (artifact === undefined)
    throw new NotFoundError({
      resource: 'artifact',
      id: filename,
      message: `Artifact not found: ${filename}`,
      hint: 'GET …/artifacts lists the names, …/artifacts/{name}/versions the versions.',
    });
  return { status: 200, body: artifactPart(artifact) };
};

/** `GET …/artifacts/{name}/versions` → its version numbers, ascending. */
export const listAdkArtifactVersions: AdkHandler = async (context) => {
  const { runner, key } = await artifactPlace(context);
  return {
    status: 200,
    body:
      runner.artifacts === undefined
        ? []
        : await runner.artifacts.listVersions({ ...key, filename: context.params['artifact'] ?? '' }),
  };
};

/** `DELETE …/artifacts/{name}` → 200 `null`, whether it existed or not, as ADK's servers do. */
export const deleteAdkArtifact: AdkHandler = async (context) => {
  const { runner, key } = await artifactPlace(context);
  await runner.artifacts?.delete({ ...key, filename: context.params['artifact'] ?? '' });
  return { status: 200, body: null };
};

// The session must exist, so a typo in its id is a 404 rather than an empty list.
async function artifactPlace(context: AdkContext) {
  const { runner, session } = await pathSession(context, { numRecentEvents: 0 });
  return { runner, key: { appName: session.appName, userId: session.userId, sessionId: session.id } };
}

function versionOf(text: string): number {
  return /^\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : Number.NaN;
}
