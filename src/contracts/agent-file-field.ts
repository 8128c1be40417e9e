import type { Extension, Processor } from './agent.js';
import type { Tool, Toolset } from './tool.js';

/**
 * What a field of an agent file is read with: each problem is reported at its path (`agents[0].skills[2]`) and
 * reading goes on, so a file's every problem is named at once. Each method returns `undefined` (after reporting) when
 * the value is not what it should be.
 */
export type FieldReader = {
  /** Reports a problem; returns `undefined`, so `return reader.issue(…)` ends a read. */
  issue(path: string, message: string): undefined;
  /** The value as an object (`what` names what was expected). */
  object(value: unknown, path: string, what?: string): Record<string, unknown> | undefined;
  /** Reports every key of `record` that is neither `allowed` nor `ignored`. */
  keys(record: Record<string, unknown>, path: string, allowed: readonly string[], ignored?: readonly string[]): void;
  string(
    record: Record<string, unknown>,
    key: string,
    path: string,
    options?: { optional?: boolean; nonEmpty?: boolean },
  ): string | undefined;
  number(
    record: Record<string, unknown>,
    key: string,
    path: string,
    options?: { optional?: boolean; integer?: boolean; min?: number },
  ): number | undefined;
  boolean(record: Record<string, unknown>, key: string, path: string): boolean | undefined;
  array(value: unknown, path: string): unknown[] | undefined;
};

/** Reads one `{ name: <class>, args }` entry of a file's `tools` into a toolset. */
export type ToolsetClass = (input: {
  reader: FieldReader;
  args: unknown;
  path: string;
  index: number;
}) => Toolset | undefined;

/**
 * The keys one feature adds to an LLM agent in a file, and how they are read: into extensions of the agent, tools the
 * file may name in `tools`, or the agent's pipeline. Problems go to `reader` at paths under `path`.
 */
export type AgentFileField = {
  /** The keys it reads, in camelCase (a `snake_case` spelling is accepted for each), with the JSON Schema of each. */
  readonly schema: Readonly<Record<string, { readonly [keyword: string]: unknown }>>;
  read(input: AgentFileFieldInput): Promise<AgentFileFieldResult> | AgentFileFieldResult;
};

export type AgentFileFieldInput = {
  readonly reader: FieldReader;
  /** The agent's fields, keys in camelCase. */
  readonly record: Record<string, unknown>;
  readonly path: string;
  /** The file being read, which relative paths in it start from. */
  readonly file: string;
};

export type AgentFileFieldResult = {
  extensions?: readonly Extension[];
  /** Tools the agent's `tools` list may name. */
  tools?: Readonly<Record<string, Tool>>;
  /** Toolsets the agent gets (MCP servers), after its tools. */
  toolsets?: readonly Toolset[];
  pipeline?: readonly Processor[];
};
