import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { MemoryFile } from '../features/memory-files/memory-file.js';
import { parseSkillFile, type Skill } from '../features/skills/skill.js';

/** Every skill in a folder: each `<name>/SKILL.md`, validated (the name must equal its folder), sorted by name. */
export async function readSkillsFolder(dir: string): Promise<Skill[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const skills: Skill[] = [];
  for (const entry of entries.filter((item) => item.isDirectory()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name, 'SKILL.md');
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? undefined : Promise.reject(error),
    );
    if (text !== undefined) skills.push(await parseSkillFile(text, { folderName: entry.name, path }));
  }
  return skills;
}

/** A memory file read from disk, named by its file name. */
export async function readMemoryFile(path: string): Promise<MemoryFile> {
  return { name: basename(path), body: (await readFile(path, 'utf8')).trim(), path };
}
