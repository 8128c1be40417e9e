import type { AgentFileField } from '../contracts/agent-file-field.js';
import { isPlainRecord, joinPath } from '../engine/util/json-reader.js';
import { builtInPlanner } from '../features/planners/built-in-planner.js';
import { planReActPlanner } from '../features/planners/plan-re-act.js';
import { readThinking } from './generate-config.js';

/**
 * `planner:` (agentctx's field; ADK 2.5.0 sets a planner in Python only): `PlanReActPlanner`, or
 * `{ name: BuiltInPlanner, thinking_config: { thinking_budget, include_thoughts, thinking_level } }`.
 */
export const plannerField: AgentFileField = {
  schema: {
    planner: {
      description:
        'ADK\u2019s planners: PlanReActPlanner (its planning instruction; the plan and reasoning come back as thoughts), or { name: BuiltInPlanner, thinking_config } (the model\u2019s own thinking).',
      anyOf: [
        { enum: ['PlanReActPlanner'] },
        {
          type: 'object',
          properties: { name: { enum: ['PlanReActPlanner', 'BuiltInPlanner'] }, thinking_config: { type: 'object' } },
          required: ['name'],
        },
      ],
    },
  },
  read({ reader, record, path }) {
    const at = joinPath(path, 'planner');
    const value = record['planner'];
    const entry = isPlainRecord(value) ? value : { name: value };
    if (isPlainRecord(value)) reader.keys(value, at, ['name', 'thinking_config', 'thinkingConfig']);
    if (entry['name'] === 'PlanReActPlanner') {
      if (entry['thinking_config'] !== undefined || entry['thinkingConfig'] !== undefined)
        reader.issue(joinPath(at, 'thinking_config'), 'goes with BuiltInPlanner; PlanReActPlanner has none');
      return { extensions: [planReActPlanner()] };
    }
    if (entry['name'] === 'BuiltInPlanner') {
      const given = entry['thinking_config'] ?? entry['thinkingConfig'];
      if (given === undefined)
        return reader.issue(joinPath(at, 'thinking_config'), 'is required for BuiltInPlanner') ?? {};
      const thinking = readThinking(reader, given, joinPath(at, 'thinking_config'));
      return thinking === undefined ? {} : { extensions: [builtInPlanner({ thinking })] };
    }
    reader.issue(
      isPlainRecord(value) ? joinPath(at, 'name') : at,
      `expected PlanReActPlanner or BuiltInPlanner, got ${JSON.stringify(entry['name'])}`,
    );
    return {};
  },
};
