import type { Extension } from '../../contracts/agent.js';
import type { Artifact } from '../../contracts/artifact.js';
import type { Part } from '../../contracts/content.js';
import type { Source } from '../../contracts/source.js';
import type { Tool } from '../../contracts/tool.js';
import { draftMessage, withSystemBlock } from '../../engine/assembly/draft.js';
import { pythonJsonDumps } from '../../engine/python/python-json.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { TOOLS_PROCESSOR } from '../tools/tool-declarations.js';

// ADK's load_artifacts (tools/load_artifacts_tool.py at 2.5.0), in two parts: the tool the model calls, declared and
// answered as ADK declares and answers it, and the request step that lists the session's artifacts in the system
// text and, right after the model called the tool, puts the artifacts it asked for into the request (not the session).

export const LOAD_ARTIFACTS = 'load_artifacts';

const STATUS =
  'artifact contents temporarily inserted and removed. to access these artifacts, call load_artifacts tool again.';

/** The tool: it answers with the names asked for; the contents reach the next request through `loadArtifactsStep`. */
export const loadArtifactsTool: Tool = Object.freeze({
  name: LOAD_ARTIFACTS,
  description:
    'Loads artifacts into the session for this request.\n\nNOTE: Call when you need access to artifacts (for example, uploads saved by the\nweb UI).',
  parameters: { type: 'object', properties: { artifact_names: { type: 'array', items: { type: 'string' } } } },
  execute(args: Record<string, unknown>) {
    return { artifact_names: args['artifact_names'] ?? [], status: STATUS };
  },
});

/**
 * The request step of an agent that has `load_artifacts`: with artifacts in the session, ADK's note listing them at
 * the end of the system text; after a `load_artifacts` answer, one user message per artifact it named (`Artifact
 * <name> is:` and its content, as Gemini can take it), looked up in the session and then among the user's.
 */
export function loadArtifactsStep(field: string): Extension {
  const processor = defineProcessor({
    name: LOAD_ARTIFACTS,
    async process(draft, context) {
      const names = (await context.artifacts?.list?.()) ?? [];
      if (names.length === 0) return draft;
      const source: Source = {
        kind: 'tool',
        processor: LOAD_ARTIFACTS,
        extension: LOAD_ARTIFACTS,
        agent: context.agent.name,
        field,
      };
      let next = withSystemBlock(draft, artifactsNote(names), { ...source, note: `${names.length} artifacts listed` });
      const first = draft.messages.at(-1)?.message.content[0];
      const asked =
        first !== undefined && 'functionResponse' in first && first.functionResponse.name === LOAD_ARTIFACTS
          ? first.functionResponse.response?.['artifact_names']
          : undefined;
      for (const name of Array.isArray(asked) ? asked : []) {
        if (typeof name !== 'string') continue;
        const artifact =
          (await context.artifacts?.load?.(name)) ??
          (name.startsWith('user:') ? undefined : await context.artifacts?.load?.(`user:${name}`));
        if (artifact === undefined) continue;
        const parts: Part[] = [{ text: `Artifact ${name} is:` }, safePart(artifact, name)];
        next = { ...next, messages: [...next.messages, draftMessage('user', parts, { ...source, note: name })] };
      }
      return next;
    },
  });
  return Object.freeze({ name: LOAD_ARTIFACTS, processors: [{ processor, after: TOOLS_PROCESSOR }] });
}

/** ADK's note, byte for byte: the names as Python's `json.dumps` writes them (ASCII only, `", "` between). */
export function artifactsNote(names: readonly string[]): string {
  const listed = pythonJsonDumps(names, { ensureAscii: true });
  return `You have a list of artifacts:\n  ${listed}\n\n  When the user asks questions about any of the artifacts, you should call the\n  \`load_artifacts\` function to load the artifact. Always call load_artifacts\n  before answering questions related to the artifacts, regardless of whether the\n  artifacts have been loaded before. Do not depend on prior answers about the\n  artifacts.\n  `;
}

// What Gemini takes as inline data (ADK's _is_inline_mime_type_supported), and what reads as text.
const UNSUPPORTED_INLINE = new Set(['image/svg', 'image/svg+xml', 'image/xml']);
const TEXT_LIKE = new Set([
  'application/csv',
  'application/json',
  'application/svg+xml',
  'application/xml',
  ...UNSUPPORTED_INLINE,
]);

/**
 * An artifact as a part Gemini accepts (ADK's _as_safe_part_for_llm): text as it is; images, audio, video and PDF
 * inline; other text-like types decoded to text; anything else a line saying what it is. (ADK also pulls the text out
 * of a .docx; agentctx describes it like any other binary.)
 */
export function safePart(artifact: Artifact, name: string): Part {
  if (artifact.kind === 'text') return { text: artifact.text };
  const mimeType = artifact.mimeType.split(';')[0]?.trim() || 'application/octet-stream';
  const inline =
    !UNSUPPORTED_INLINE.has(mimeType) && (/^(image|audio|video)\//.test(mimeType) || mimeType === 'application/pdf');
  if (inline)
    return { inlineData: { mimeType: artifact.mimeType, data: Buffer.from(artifact.data).toString('base64') } };
  const lower = name.toLowerCase();
  if (mimeType.startsWith('text/') || TEXT_LIKE.has(mimeType) || /\.(csv|txt|json|xml)$/.test(lower))
    return { text: new TextDecoder('utf-8').decode(artifact.data) };
  const size = kilobytes(artifact.data.length);
  return {
    text: `[Binary artifact: ${name}, type: ${mimeType}, size: ${size} KB. Content cannot be displayed inline.]`,
  };
}

// Python's `f"{bytes / 1024:.1f}"`: the exact quotient rounded half to even (toFixed rounds 0.25 up, Python down).
function kilobytes(bytes: number): string {
  const tenths = (bytes * 10) / 1024;
  const whole = Math.floor(tenths);
  const rest = tenths - whole;
  const rounded = rest > 0.5 || (rest === 0.5 && whole % 2 === 1) ? whole + 1 : whole;
  return `${Math.floor(rounded / 10)}.${rounded % 10}`;
}
