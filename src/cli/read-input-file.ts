import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { ValidationError } from '../contracts/errors/validation-error.js';

/** Reads a file the user named, turning the usual failures into one clear sentence. */
export async function readInputFile(path: string, cwd: string): Promise<string> {
  const full = resolve(cwd, path);
  try {
    return await readFile(full, 'utf8');
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
