import type { Extension, PluginHooks } from '../../contracts/agent.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { isLlmAgent } from '../agent/agent-tree.js';
import type { AgentRun } from './invocation.js';

export type HookName = keyof PluginHooks;
type Hook<K extends HookName> = NonNullable<PluginHooks[K]>;
export type HookArgs<K extends HookName> = Parameters<Hook<K>>[0];
export type HookAnswer<K extends HookName> = Exclude<Awaited<ReturnType<Hook<K>>>, undefined | void>;

/** The extensions whose hooks apply to an agent's run, in the order they run: the runner's plugins, then the agent's own. */
export function hookSources(run: AgentRun): readonly Extension[] {
  const plugins = run.invocation.settings.plugins;
  const definition = run.node.definition;
  const own = isLlmAgent(definition) ? definition.extensions : [];
  if (own.length === 0) return plugins;
  return plugins.length === 0 ? own : [...plugins, ...own];
}

export function hasHook(extensions: readonly Extension[], name: HookName): boolean {
  return extensions.some((extension) => extension.hooks?.[name] !== undefined);
}

/** Runs the hooks of one kind in order until one answers (anything but undefined or null); that answer, or undefined. */
export async function firstHook<K extends HookName>(
  extensions: readonly Extension[],
  name: K,
  args: HookArgs<K>,
): Promise<HookAnswer<K> | undefined> {
  for (const extension of extensions) {
    const hook = extension.hooks?.[name] as ((args: HookArgs<K>) => unknown) | undefined;
    if (hook === undefined) continue;
    const answer = await runHook(extension, name, () => hook.call(extension.hooks, args));
    if (answer !== undefined && answer !== null) return answer as HookAnswer<K>;
  }
  return undefined;
}

/** Runs every hook of one kind, in order, and returns their answers. */
export async function everyHook<K extends HookName>(
  extensions: readonly Extension[],
  name: K,
  args: HookArgs<K>,
): Promise<HookAnswer<K>[]> {
  const answers: HookAnswer<K>[] = [];
  for (const extension of extensions) {
    const hook = extension.hooks?.[name] as ((args: HookArgs<K>) => unknown) | undefined;
    if (hook === undefined) continue;
    const answer = await runHook(extension, name, () => hook.call(extension.hooks, args));
    if (answer !== undefined && answer !== null) answers.push(answer as HookAnswer<K>);
  }
  return answers;
}

// A hook that throws fails as its callback would, with an error that names the extension and the hook.
export async function runHook(extension: Extension, name: HookName, call: () => unknown): Promise<unknown> {
  try {
    return await call();
  } catch (error) {
    const reason = AgentctxError.isInstance(error)
      ? error.describe()
      : error instanceof Error
        ? error.message
        : String(error);
    throw new AgentctxError({
      code: 'extension_failed',
      message: `Extension '${extension.name}' failed in its ${name} hook: ${reason}`,
      cause: error,
    });
  }
}

/** Runs every hook of one kind, in order, each on what the one before returned (or the value as it was). */
export async function chainHook<K extends HookName, V>(
  extensions: readonly Extension[],
  name: K,
  value: V,
  args: (value: V) => HookArgs<K>,
): Promise<V> {
  let current = value;
  for (const extension of extensions) {
    const hook = extension.hooks?.[name] as ((args: HookArgs<K>) => unknown) | undefined;
    if (hook === undefined) continue;
    const answer = await runHook(extension, name, () => hook.call(extension.hooks, args(current)));
    if (answer !== undefined && answer !== null) current = answer as V;
  }
  return current;
}
