import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { ValidationError } from '../contracts/errors/validation-error.js';

/** Reads a text file the user named, turning the usual failures into one clear sentence. */
export function readInputFile(path: string, cwd: string): Promise<string> {
  return readNamed(path, cwd, (full) => readFile(full, 'utf8'));
}

/** Reads a file the user named as bytes (an artifact), with the same one-sentence failures. */
export function readInputBytes(path: string, cwd: string): Promise<Uint8Array> {
  return readNamed(path, cwd, async (full) => new Uint8Array(await readFile(full)));
}

async function readNamed<T>(path: string, cwd: string, read: (full: string) => Promise<T>): Promise<T> {
  try {
    return await read(resolve(cwd, path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new NotFoundError({ resource: 'file', id: path, message: `Cannot read ${path}: no such file.`, hint: 'Check the path.' });
    }
    if (code === 'EISDIR') {
      throw new ValidationError({ subject: path, issues: [{ path: '', message: 'is a folder, not a file' }], hint: 'Name a file inside it.' });
    }
    throw new ValidationError({ subject: path, issues: [{ path: '', message: `cannot be read (${code ?? 'unknown error'})` }], cause: error });
  }
}
