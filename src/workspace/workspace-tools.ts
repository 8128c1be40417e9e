import { readFile, realpath, writeFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Tool } from '../contracts/tool.js';

export type WorkspaceToolsOptions = {
  /** The folder the tools may read and edit; nothing outside it, symbolic links included. */
  root: string;
  /** Largest file `Read` returns whole; longer ones are refused with their size. Default 256 KiB. */
  maxReadBytes?: number;
};

/**
 * `Read` (`path`) and `Edit` (`path`, `old_text`, `new_text`), confined to a workspace folder. A path outside it,
 * a missing file or an edit whose `old_text` is not found exactly once comes back to the model as an error.
 */
export function workspaceTools(options: WorkspaceToolsOptions): [Tool, Tool] {
  const maxBytes = options.maxReadBytes ?? 256 * 1024;
  const read: Tool = Object.freeze({
    name: 'Read',
    description: 'Reads a file of the workspace and returns its text.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Path relative to the workspace root.' } },
      required: ['path'],
    },
    execute: async (args: Record<string, unknown>) => {
      const target = await inside(options.root, args['path']);
      if ('error' in target) return target;
      const bytes = await readFile(target.path).catch((error: NodeJS.ErrnoException) => error);
      if (bytes instanceof Error) return { error: fileError(target.relative, bytes) };
      if (bytes.length > maxBytes)
        return { error: `${target.relative} has ${bytes.length} bytes, more than the ${maxBytes} this tool returns.` };
      return { path: target.relative, content: bytes.toString('utf8') };
    },
  });
  const edit: Tool = Object.freeze({
    name: 'Edit',
    description:
      'Replaces one exact occurrence of old_text with new_text in a file of the workspace. Read the file first.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path relative to the workspace root.' },
        old_text: { type: 'string', description: 'Text that occurs exactly once in the file.' },
        new_text: { type: 'string', description: 'The replacement.' },
      },
      required: ['path', 'old_text', 'new_text'],
    },
    execute: async (args: Record<string, unknown>) => {
      const target = await inside(options.root, args['path']);
      if ('error' in target) return target;
      const oldText = args['old_text'];
      const newText = args['new_text'];
      if (typeof oldText !== 'string' || oldText === '' || typeof newText !== 'string')
        return { error: 'old_text (not empty) and new_text must be strings.' };
      const text = await readFile(target.path, 'utf8').catch((error: NodeJS.ErrnoException) => error);
      if (text instanceof Error) return { error: fileError(target.relative, text) };
      const first = text.indexOf(oldText);
      if (first === -1)
        return { error: `old_text does not occur in ${target.relative}; read the file and copy the text exactly.` };
      if (text.indexOf(oldText, first + 1) !== -1)
        return { error: `old_text occurs more than once in ${target.relative}; include more surrounding text.` };
      await writeFile(target.path, text.slice(0, first) + newText + text.slice(first + oldText.length));
      return { path: target.relative, replaced: true };
    },
  });
  return [read, edit];
}

// Resolves a path against the root and refuses anything that lands outside it, also through symbolic links.
async function inside(root: string, path: unknown): Promise<{ path: string; relative: string } | { error: string }> {
  if (typeof path !== 'string' || path === '') return { error: 'path must be a non-empty string.' };
  const realRoot = await realpath(root);
  const candidate = resolve(realRoot, path);
  const real = await realpath(candidate).catch(() => candidate);
  for (const target of [candidate, real]) {
    const rel = relative(realRoot, target);
    if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
      return { error: `${path} is outside the workspace; only files under its root can be used.` };
  }
  return { path: candidate, relative: relative(realRoot, candidate) || '.' };
}

function fileError(path: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return `${path} does not exist.`;
  if (error.code === 'EISDIR') return `${path} is a folder, not a file.`;
  return `${path} cannot be read (${error.code ?? error.message}).`;
}
