/** A memory file (`MEMORY.md` and the like): notes kept on disk that a request carries only when switched on. */
export type MemoryFile = {
  /** The file's name, which labels its block. */
  readonly name: string;
  readonly body: string;
  readonly path?: string;
};

export type MemoryFileMode = 'on' | 'off';
