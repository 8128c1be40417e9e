import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { ValidationError } from '../contracts/errors/validation-error.js';

/** The largest text file (agent, case, script, state, template) read: far past any real one. */
export const MAX_TEXT_FILE_BYTES: number = 16 * 1024 * 1024;
/** The largest file read as an artifact. */
export const MAX_BYTES_FILE_BYTES: number = 256 * 1024 * 1024;

/** Reads a text file the user named, turning the usual failures into one clear sentence. */
export function readInputFile(path: string, cwd: string): Promise<string> {
  return readNamed(path, cwd, MAX_TEXT_FILE_BYTES, (full) => readFile(full, 'utf8'));
}

/** Reads a file the user named as bytes (an artifact), with the same one-sentence failures. */
export function readInputBytes(path: string, cwd: string): Promise<Uint8Array> {
  return readNamed(path, cwd, MAX_BYTES_FILE_BYTES, async (full) => new Uint8Array(await readFile(full)));
}

async function readNamed<T>(path: string, cwd: string, limit: number, read: (full: string) => Promise<T>): Promise<T> {
  try {
    const full = resolve(cwd, path);
    // Only a regular file of a sane size: a device (/dev/zero) or a pipe would be read without end, or never answer.
    const info = await stat(full);
    if (!info.isFile() && !info.isDirectory()) {
      throw new ValidationError({
        subject: path,
        issues: [{ path: '', message: 'is not a regular file (a device, a pipe or a socket)' }],
        hint: 'Name a file.',
      });
    }
    if (info.isFile() && info.size > limit) {
      throw new ValidationError({
        subject: path,
        issues: [
          {
            path: '',
            message: `is ${info.size.toLocaleString('en')} bytes, over the ${limit.toLocaleString('en')} bytes read from a file given here`,
          },
        ],
        hint: 'Name a smaller file.',
      });
    }
    return await read(full);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new NotFoundError({
        resource: 'file',
        id: path,
        message: `Cannot read ${path}: no such file.`,
        hint: 'Check the path.',
      });
    }
    if (code === 'EISDIR') {
      throw new ValidationError({
        subject: path,
        issues: [{ path: '', message: 'is a folder, not a file' }],
        hint: 'Name a file inside it.',
      });
    }
    throw new ValidationError({
      subject: path,
      issues: [{ path: '', message: `cannot be read (${code ?? 'unknown error'})` }],
      cause: error,
    });
  }
}
