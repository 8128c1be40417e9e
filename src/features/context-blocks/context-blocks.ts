import type { Processor } from '../../contracts/agent.js';
import type { Part } from '../../contracts/content.js';
import type { DraftMessage, RequestDraft } from '../../contracts/draft.js';
import type { Source } from '../../contracts/source.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { settingOf } from '../../engine/extensions/settings.js';
import { effectiveMemoryFileMode, MEMORY_FILES } from '../memory-files/memory-files.js';
import { effectiveSkillMode } from '../skills/skill-modes.js';
import { SKILLS } from '../skills/skills-extension.js';

export const CONTEXT_BLOCKS_PROCESSOR = 'context-blocks';

/**
 * Loaded skills and memory files that are on, as labelled blocks at the start of the first user message: skills
 * first, then memory, then what the user wrote. They stay out of the system text, so switching one on or off
 * leaves `system` and `tools` byte-identical, and at the start of the history, so the prompt's prefix stays stable.
 */
export const contextBlocksProcessor: Processor = defineProcessor({
  name: CONTEXT_BLOCKS_PROCESSOR,
  process(draft, context): RequestDraft {
    const agent = context.agent;
    const parts: Part[] = [];
    const sources: Source[] = [];
    for (const entry of settingOf(context.extensions, SKILLS)?.entries ?? []) {
      if (effectiveSkillMode(entry, context.state) !== 'loaded') continue;
      parts.push({ text: `<skill name="${entry.skill.name}">\n${entry.skill.body}\n</skill>` });
      sources.push({
        kind: 'skill',
        processor: CONTEXT_BLOCKS_PROCESSOR,
        agent: agent.name,
        field: `skills.${entry.skill.name}`,
        ...(entry.skill.path === undefined ? {} : { note: entry.skill.path }),
      });
    }
    for (const entry of settingOf(context.extensions, MEMORY_FILES) ?? []) {
      if (effectiveMemoryFileMode(entry, context.state) !== 'on') continue;
      parts.push({ text: `<memory file="${entry.file.name}">\n${entry.file.body}\n</memory>` });
      sources.push({
        kind: 'memory',
        processor: CONTEXT_BLOCKS_PROCESSOR,
        agent: agent.name,
        field: `memory.${entry.file.name}`,
        ...(entry.file.path === undefined ? {} : { note: entry.file.path }),
      });
    }
    if (parts.length === 0) return draft;
    const first = draft.messages[0];
    // A first message that answers a call keeps its place beside the call; the blocks then open the history on their own.
    if (
      first !== undefined &&
      first.message.role === 'user' &&
      !first.message.content.some((part) => 'functionResponse' in part)
    ) {
      const merged: DraftMessage = {
        message: { role: 'user', content: [...parts, ...first.message.content] },
        sources: [...sources, ...first.sources],
      };
      return { ...draft, messages: [merged, ...draft.messages.slice(1)] };
    }
    return { ...draft, messages: [{ message: { role: 'user', content: parts }, sources }, ...draft.messages] };
  },
});
