// A Stryker ignore-plugin for `npm run mutate` (docs/mutation.md): mutants inside human-readable text are not made.
// Text here is the `message` and `hint` of errors and issues, the message of `JsonReader.issue(path, message)` and of
// `new HttpError(status, code, message)`; what a program reads (codes, statuses, paths, keys, headers) is still mutated.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const TEXT_PROPERTIES = new Set(['message', 'hint']);
const REASON = 'human-readable text (docs/mutation.md)';

/** @param {any} path a Babel NodePath */
function shouldIgnore(path) {
  const parent = path.parentPath;
  if (parent === null || parent === undefined) return undefined;
  if (parent.isObjectProperty() && path.key === 'value' && !parent.node.computed) {
    const key = parent.node.key;
    const name = key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : undefined;
    if (name !== undefined && TEXT_PROPERTIES.has(name)) return REASON;
  }
  if (path.listKey === 'arguments' && parent.isCallExpression()) {
    const callee = parent.node.callee;
    if (path.key === 1 && callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' && callee.property.name === 'issue') return REASON;
  }
  if (path.listKey === 'arguments' && parent.isNewExpression()) {
    const callee = parent.node.callee;
    if (path.key === 2 && callee.type === 'Identifier' && callee.name === 'HttpError') return REASON;
  }
  return undefined;
}

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'agentctx-text', { shouldIgnore })];
