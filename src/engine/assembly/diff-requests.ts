import type { Part } from '../../contracts/content.js';
import type { LlmRequest } from '../../contracts/request.js';
import { requestToJson } from './request-json.js';

export type FieldDiff = { identical: boolean; a: number; b: number };

/** How two requests differ, field by field. */
export type RequestDiff = {
  identical: boolean;
  /** Characters of the system text on each side, and whether it is byte-identical. */
  system: FieldDiff & { firstDifference: number | undefined };
  /** Tool counts, and the paths of the tools that differ. */
  tools: FieldDiff & { differing: string[] };
  /** Message counts, and the first part that differs (`messages[0].content[1]`). */
  messages: FieldDiff & { firstDifference: string | undefined };
  config: { identical: boolean };
  /**
   * Characters the two requests share from their start, in their JSON form (system, then tools, then messages): the
   * part a provider's prompt cache could reuse from one call to the next.
   */
  commonPrefix: { chars: number; of: number };
};

/** Compares two requests field by field; "identical" means byte for byte in their JSON form. */
export function diffRequests(a: LlmRequest, b: LlmRequest): RequestDiff {
  const system = {
    identical: a.system === b.system,
    a: a.system.length,
    b: b.system.length,
    firstDifference: a.system === b.system ? undefined : firstDifferentChar(a.system, b.system),
  };
  const differingTools: string[] = [];
  for (let index = 0; index < Math.max(a.tools.length, b.tools.length); index++) {
    if (JSON.stringify(a.tools[index]) !== JSON.stringify(b.tools[index])) differingTools.push(`tools[${index}]`);
  }
  const tools = {
    identical: differingTools.length === 0,
    a: a.tools.length,
    b: b.tools.length,
    differing: differingTools,
  };
  const messagesDifference = firstDifferentPart(a, b);
  const messages = {
    identical: messagesDifference === undefined,
    a: a.messages.length,
    b: b.messages.length,
    firstDifference: messagesDifference,
  };
  const config = { identical: JSON.stringify(a.config) === JSON.stringify(b.config) };
  const textA = JSON.stringify(requestToJson(a));
  const textB = JSON.stringify(requestToJson(b));
  return {
    identical: textA === textB,
    system,
    tools,
    messages,
    config,
    commonPrefix: {
      chars: textA === textB ? textA.length : firstDifferentChar(textA, textB),
      of: Math.max(textA.length, textB.length),
    },
  };
}

function firstDifferentChar(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  for (let index = 0; index < limit; index++) if (a.charCodeAt(index) !== b.charCodeAt(index)) return index;
  return limit;
}

function firstDifferentPart(a: LlmRequest, b: LlmRequest): string | undefined {
  for (let index = 0; index < Math.max(a.messages.length, b.messages.length); index++) {
    const left = a.messages[index];
    const right = b.messages[index];
    if (left === undefined || right === undefined) return `messages[${index}]`;
    if (left.role !== right.role) return `messages[${index}].role`;
    for (let part = 0; part < Math.max(left.content.length, right.content.length); part++) {
      if (!samePart(left.content[part], right.content[part])) return `messages[${index}].content[${part}]`;
    }
  }
  return undefined;
}

function samePart(a: Part | undefined, b: Part | undefined): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
