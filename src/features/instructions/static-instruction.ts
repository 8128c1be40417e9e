import type { StaticInstruction } from '../../contracts/agent.js';
import type { Part } from '../../contracts/content.js';
import type { RequestDraft } from '../../contracts/draft.js';
import type { Source } from '../../contracts/source.js';
import { draftMessage, withSystemBlock } from '../../engine/assembly/draft.js';

/**
 * Adds a static instruction the way ADK's `append_instructions(Content)` does: text parts join the system text;
 * each inline or file data part is referenced there by a numbered line and sent itself in a user message.
 */
export function appendStaticInstruction(
  draft: RequestDraft,
  instruction: StaticInstruction,
  source: Source,
): RequestDraft {
  const parts = staticParts(instruction);
  const texts: string[] = [];
  const messages = [...draft.messages];
  let counter = 0;
  for (const part of parts) {
    if ('text' in part) {
      // ADK skips empty text parts (`if part.text`), so they leave no blank line behind.
      if (part.text !== '') texts.push(part.text);
    } else if ('inlineData' in part) {
      const { displayName, mimeType } = part.inlineData;
      const name = `inline_data_${counter++}`;
      texts.push(
        `[Reference to inline binary data: ${name}${details([quoted(displayName), labelled('type', mimeType)])}]`,
      );
      messages.push(draftMessage('user', [{ text: `Referenced inline data: ${name}` }, part], source));
    } else if ('fileData' in part) {
      const { displayName, fileUri, mimeType } = part.fileData;
      const name = `file_data_${counter++}`;
      texts.push(
        `[Reference to file data: ${name}${details([quoted(displayName), labelled('URI', fileUri), labelled('type', mimeType)])}]`,
      );
      messages.push(draftMessage('user', [{ text: `Referenced file data: ${name}` }, part], source));
    }
  }
  const withMessages = { ...draft, messages };
  return texts.length === 0 ? withMessages : withSystemBlock(withMessages, texts.join('\n\n'), source);
}

/** What genai's `t_content` makes of the accepted forms: a string is one text part, a list one part per item. */
export function staticParts(instruction: StaticInstruction): Part[] {
  if (typeof instruction === 'string') return [{ text: instruction }];
  if ('parts' in instruction) return [...instruction.parts];
  return instruction.map((item) => (typeof item === 'string' ? { text: item } : item));
}

/** ADK's truthiness of a static instruction: an empty string or list counts as none. */
export function hasStaticInstruction(instruction: StaticInstruction | undefined): instruction is StaticInstruction {
  if (instruction === undefined) return false;
  if (typeof instruction === 'string' || Array.isArray(instruction)) return instruction.length > 0;
  return true;
}

function quoted(value: string | undefined): string | undefined {
  return value === undefined ? undefined : `'${value}'`;
}

function labelled(label: string, value: string | undefined): string | undefined {
  return value === undefined ? undefined : `${label}: ${value}`;
}

function details(items: (string | undefined)[]): string {
  const present = items.filter((item): item is string => item !== undefined);
  return present.length === 0 ? '' : ` (${present.join(', ')})`;
}
