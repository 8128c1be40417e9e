import type { AssemblyContext } from '../../contracts/agent.js';
import type { ReadonlyContext } from '../../contracts/contexts.js';
import { copyValue } from '../../engine/util/copy-value.js';
import { injectState, type TemplateOptions } from '../templating/inject-state.js';

const made = new WeakMap<AssemblyContext, ReadonlyContext>();

/** What instruction providers see of an assembly: who asks, state as copies, and the assembly's own templating. */
export function readonlyContext(context: AssemblyContext): ReadonlyContext {
  let readonly = made.get(context);
  if (readonly !== undefined) return readonly;
  const state = context.state;
  readonly = {
    agentName: context.agent.name,
    invocationId: context.invocationId,
    appName: context.appName,
    userId: context.userId,
    sessionId: context.sessionId,
    branch: context.branch,
    userContent: context.userContent,
    state: {
      get: <T>(key: string) => copyValue(state[key]) as T | undefined,
      has: (key: string) => Object.hasOwn(state, key),
      toRecord: () => copyValue({ ...state }),
    },
    injectState: (template: string) => injectState(template, templateOptions(context)),
  };
  made.set(context, readonly);
  return readonly;
}

/** The templating an assembly's string instructions get: its state and artifacts, in its profile's conventions. */
export function templateOptions(context: AssemblyContext): TemplateOptions {
  const { valueFormat, templateEscapes, stateAlias, python } = context.profile;
  return {
    state: context.state,
    artifacts: context.artifacts,
    valueFormat,
    escapes: templateEscapes,
    stateAlias,
    ...(python === undefined ? {} : { python }),
  };
}
