import { UsageError } from '../contracts/errors/usage-error.js';
import type { AdkBinding } from '../presets/adk-bindings.js';
import { importAgentModule } from './import-agent-module.js';

/** The help line of `--bindings`, for the commands that read agent files. */
export const BINDINGS_HELP = `  --bindings <module>  TypeScript for the Python an ADK agent file names: a module
                       whose default export maps dotted names ('pkg.tools.roll_die')
                       to a tool or function, a callback, or an agent definition`;

/**
 * The bindings module of `--bindings`: its `bindings` export, else its default export, an object whose keys are the
 * dotted Python names an agent file gives. Undefined without the flag.
 */
export async function loadBindings(
  path: string | undefined,
  cwd: string,
): Promise<Readonly<Record<string, AdkBinding>> | undefined> {
  if (path === undefined) return undefined;
  const module = await importAgentModule(path, cwd);
  const bindings = module['bindings'] ?? module['default'];
  if (typeof bindings !== 'object' || bindings === null || Array.isArray(bindings))
    throw new UsageError(
      `${path} exports no bindings.`,
      "Export an object as default (or as `bindings`): { 'pkg.tools.roll_die': (args, context) => …, … }.",
    );
  return bindings as Record<string, AdkBinding>;
}
