import type { Extension, PluginHooks } from '../../contracts/agent.js';
import type { ValidationIssue } from '../../contracts/errors/validation-error.js';
import { isValidToolName } from '../tools/tool.js';

type HookName = keyof PluginHooks;

/** The hooks that only a runner can call: they concern the whole invocation, not one agent. */
export const RUN_HOOKS: readonly HookName[] = ['onUserMessage', 'beforeRun', 'onEvent', 'afterRun'];

const AGENT_HOOKS: readonly HookName[] = [
  'beforeAgent',
  'afterAgent',
  'afterAssembly',
  'beforeModel',
  'afterModel',
  'processResponse',
  'onModelError',
  'beforeTool',
  'afterTool',
  'onToolError',
];

/**
 * Problems with extensions as registered on an agent (`where: 'agent'`) or a runner (`'runner'`), at paths under
 * `field` (an extension may carry members of its own besides these): names missing or used twice, placements without exactly one anchor, tools without a valid name, settings
 * without a key, hooks that are unknown, not functions, or (on an agent) run-level.
 */
export function checkExtensions(extensions: unknown, field: string, where: 'agent' | 'runner'): ValidationIssue[] {
  if (!Array.isArray(extensions)) return [{ path: field, message: 'expected a list of extensions' }];
  const issues: ValidationIssue[] = [];
  const names = new Set<string>();
  extensions.forEach((value: unknown, index) => {
    const at = `${field}[${index}]`;
    if (typeof value !== 'object' || value === null) {
      issues.push({ path: at, message: 'expected an extension: an object with a name' });
      return;
    }
    const extension = value as Extension;
    if (typeof extension.name !== 'string' || extension.name.trim() === '')
      issues.push({ path: `${at}.name`, message: 'must be a non-empty string' });
    else if (names.has(extension.name))
      issues.push({ path: `${at}.name`, message: `'${extension.name}' is registered twice` });
    else names.add(extension.name);
    (extension.processors ?? []).forEach((placement, position) => {
      const path = `${at}.processors[${position}]`;
      const processor = placement?.processor;
      if (typeof processor?.name !== 'string' || processor.name === '' || typeof processor.process !== 'function')
        issues.push({ path, message: 'needs a processor with a name and a process function' });
      const anchors = ['before', 'after', 'at'].filter(
        (key) => placement !== null && typeof placement === 'object' && key in placement,
      );
      if (anchors.length !== 1)
        issues.push({
          path,
          message: `needs exactly one of before, after or at; has ${anchors.length === 0 ? 'none' : anchors.join(' and ')}`,
        });
      else if ('at' in placement && placement.at !== 'start' && placement.at !== 'end')
        issues.push({ path: `${path}.at`, message: `expected 'start' or 'end', got ${JSON.stringify(placement.at)}` });
    });
    (extension.tools ?? []).forEach((tool, position) => {
      if (typeof tool?.name !== 'string' || !isValidToolName(tool.name))
        issues.push({
          path: `${at}.tools[${position}].name`,
          message: `'${String(tool?.name)}' is not a valid tool name`,
        });
    });
    (extension.settings ?? []).forEach((setting, position) => {
      if (typeof setting?.key?.name !== 'string')
        issues.push({
          path: `${at}.settings[${position}]`,
          message: 'expected a setting made with setting(key, value)',
        });
    });
    for (const [hook, handler] of Object.entries(extension.hooks ?? {})) {
      const path = `${at}.hooks.${hook}`;
      if (!RUN_HOOKS.includes(hook as HookName) && !AGENT_HOOKS.includes(hook as HookName))
        issues.push({ path, message: `unknown hook; the hooks are ${[...RUN_HOOKS, ...AGENT_HOOKS].join(', ')}` });
      else if (typeof handler !== 'function') issues.push({ path, message: 'must be a function' });
      else if (where === 'agent' && RUN_HOOKS.includes(hook as HookName))
        issues.push({
          path,
          message:
            'concerns the whole invocation, so it needs a runner: register the extension as a plugin (createRunner({ plugins }))',
        });
    }
  });
  return issues;
}
