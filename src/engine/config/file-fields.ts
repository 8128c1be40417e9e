import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { FieldReader } from '../../contracts/agent-file-field.js';

// Helpers for agent-file keys that read other files (skills folders, memory files).

/** The key is refused where no files can be read (an agent defined in code, or a test without file access). */
export function refuse(reader: FieldReader, path: string): Record<string, never> {
  reader.issue(path, 'files cannot be read here; load the agent through the CLI or pass `files`');
  return {};
}

/** A folder or file that is missing or broken is an issue at the field naming it, not a crash. */
export async function readNamedFiles<T>(
  reader: FieldReader,
  path: string,
  read: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ValidationError) {
      for (const issue of error.issues)
        reader.issue(path, `${error.subject}: ${issue.path === '' ? '' : `${issue.path}: `}${issue.message}`);
      return undefined;
    }
    return reader.issue(path, `cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
}
