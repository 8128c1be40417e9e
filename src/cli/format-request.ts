import type { Part, ProviderMetadata } from '../contracts/content.js';
import type { Provenance, RequestEdit } from '../contracts/provenance.js';
import type { LlmRequest } from '../contracts/request.js';
import type { Source } from '../contracts/source.js';
import type { Occurrence } from '../engine/assembly/find-in-request.js';
import { referencedDeferredTools } from '../engine/tools/deferred-tools.js';
import { describeToolOrigin, toolTokensByOrigin } from '../engine/tools/tool-origin.js';
import {
  editsIn,
  partPieces,
  systemPieces,
  toolDescriptionPieces,
  type TextPiece,
} from '../engine/assembly/provenance-pieces.js';
import type { RequestTokenCount } from '../engine/tokens/count-request-tokens.js';
import type { Style } from './style.js';

/** One line naming where a piece of the request came from: `instruction · coordinator.instruction`. */
export function describeSource(source: Source | undefined): string {
  if (source === undefined) return 'unknown source';
  const where = source.field !== undefined ? `${source.agent}.${source.field}` : source.agent;
  const events =
    source.eventIds === undefined
      ? ''
      : ` · event${source.eventIds.length === 1 ? '' : 's'} ${source.eventIds.join(', ')}`;
  const session =
    source.session === undefined
      ? ''
      : ` · session ${source.session.sessionId} of user ${source.session.userId} in app ${source.session.appName}`;
  const note = source.note === undefined ? '' : ` (${source.note})`;
  const extension = source.extension === undefined ? '' : ` · extension ${source.extension}`;
  const tool = source.tool === undefined ? '' : ` · ${describeToolOrigin(source).label}`;
  return `${source.kind} · ${where}${extension}${tool}${session}${events}${note}`;
}

/** The request, section by section, each piece under a header that says where it came from (and its tokens, if counted). */
export function formatRequest(
  request: LlmRequest,
  provenance: Provenance,
  header: string,
  style: Style,
  tokens?: RequestTokenCount,
): string {
  const lines: string[] = [style.bold(header), ''];
  const bar = style.dim('│');
  const body = (text: string) =>
    text === '' ? [`${bar} ${style.dim('(empty)')}`] : text.split('\n').map((line) => `${bar} ${line}`);
  const count = (value: number | undefined) => (value === undefined ? '' : style.yellow(` · ${value} tokens`));

  const deferredTokens =
    request.deferredTools === undefined || tokens === undefined
      ? ''
      : `, loaded deferred tools ${tokens.deferred.total}`;
  if (tokens !== undefined)
    lines.push(
      style.bold(
        `TOKENS · ${tokens.total} (local estimate, o200k): system ${tokens.system.total}, tools ${tokens.tools.total}${deferredTokens}, messages ${tokens.messages.total}, framing ${tokens.framing}`,
      ),
      '',
    );
  lines.push(
    style.bold(
      `SYSTEM · ${plural(provenance.system.length, 'block')} · ${request.system.length} chars${count(tokens?.system.total)}`,
    ),
  );
  const pieces = systemPieces(request, provenance);
  provenance.system.forEach((block, index) => {
    lines.push(
      `${style.dim('┌')} ${style.cyan(`block ${index + 1}`)} · ${describeSource(block.source)}${count(tokens?.system.blocks[index])}`,
    );
    lines.push(...memoryLines(block.source, bar, style));
    const own = pieces.filter((piece) => !piece.separator && piece.start >= block.start && piece.end <= block.end);
    lines.push(...body(marked(request.system, own, style)));
    for (const substitution of block.source.substitutions ?? []) {
      const what =
        substitution.kind === 'state'
          ? `state '${substitution.key}' (${substitution.scope})`
          : `artifact '${substitution.name}'`;
      lines.push(
        `${bar} ${style.dim(`↳ ${substitution.placeholder} → ${what}${substitution.present ? '' : ', not set'} at ${substitution.start}–${substitution.end}`)}`,
      );
    }
    const inBlock = editsIn(provenance, { in: 'system' }).filter(
      (edit) => edit.start >= block.start && edit.end <= block.end,
    );
    lines.push(...editLines(request.system, inBlock, block.start, bar, style));
  });

  lines.push('', style.bold(`TOOLS · ${request.tools.length}${count(tokens?.tools.total)}`));
  if (tokens !== undefined && request.tools.length > 0) {
    const groups = toolTokensByOrigin(provenance.tools, tokens.tools.each);
    lines.push(
      style.dim(`by source: ${groups.map((group) => `${group.group} ${group.tokens} (${group.tools})`).join(', ')}`),
    );
  }
  request.tools.forEach((tool, index) => {
    lines.push(
      `${style.dim('┌')} ${style.cyan(`tools[${index}]`)} ${style.bold(tool.name)} · ${describeSource(provenance.tools[index])}${count(tokens?.tools.each[index])}`,
    );
    const described = toolDescriptionPieces(request, provenance, index);
    lines.push(...body(marked(tool.description, described, style)));
    lines.push(...editLines(tool.description, editsIn(provenance, { in: 'tool', tool: index }), 0, bar, style));
    if (tool.parameters !== undefined)
      lines.push(`${bar} ${style.dim('parameters:')} ${JSON.stringify(tool.parameters)}`);
  });

  if (request.deferredTools !== undefined) lines.push('', ...deferredLines(request, provenance, style, tokens));
  if (request.builtInTools !== undefined) {
    lines.push('', style.bold(`BUILT-IN TOOLS · ${request.builtInTools.length}, run by the provider`));
    request.builtInTools.forEach((tool, index) => {
      lines.push(
        `${style.dim('┌')} ${style.cyan(`builtInTools[${index}]`)} ${style.bold(`${tool.provider} ${tool.type}`)} · ${describeSource(provenance.builtInTools?.[index])}`,
      );
      if (tool.settings !== undefined) lines.push(`${bar} ${style.dim('settings:')} ${JSON.stringify(tool.settings)}`);
    });
  }

  lines.push('', style.bold(`MESSAGES · ${request.messages.length}${count(tokens?.messages.total)}`));
  request.messages.forEach((message, index) => {
    lines.push(
      `${style.dim('┌')} ${style.cyan(`messages[${index}]`)} ${style.bold(message.role)}${count(tokens?.messages.each[index]?.total)}`,
    );
    message.content.forEach((part, partIndex) => {
      lines.push(
        `${bar} ${style.dim(`content[${partIndex}] · ${describeSource(provenance.messages[index]?.[partIndex])}`)}`,
        ...memoryLines(provenance.messages[index]?.[partIndex], `${bar}  `, style),
      );
      const partEdits = 'text' in part ? partPieces(request, provenance, index, partIndex) : [];
      const shown =
        'text' in part && partEdits.some((piece) => piece.edit !== undefined)
          ? (part.thought === true ? '(thought) ' : '') + marked(part.text, partEdits, style)
          : partText(part);
      lines.push(...shown.split('\n').map((line) => `${bar}   ${line}`));
      if ('text' in part)
        lines.push(
          ...editLines(
            part.text,
            editsIn(provenance, { in: 'part', message: index, part: partIndex }),
            0,
            `${bar}  `,
            style,
          ),
        );
    });
  });

  // The generation settings the request carries beside its content (the response schema of an outputSchema among them).
  const { model: _model, ...settings } = request.config;
  const keys = Object.keys(settings) as (keyof typeof settings)[];
  if (keys.length > 0) {
    lines.push('', style.bold(`SETTINGS · ${keys.length}`));
    for (const key of keys) lines.push(`${style.dim('┌')} ${style.cyan(key)} ${JSON.stringify(settings[key])}`);
  }

  if (provenance.removed !== undefined && provenance.removed.length > 0) {
    lines.push('', style.bold(`REMOVED BY HOOKS · ${provenance.removed.length}`));
    for (const removal of provenance.removed) {
      lines.push(
        `${style.dim('┌')} ${removal.what} · ${describeSource(removal.source)}`,
        `${bar} ${style.dim(`removed by ${describeSource(removal.by)}`)}`,
        ...body(removal.preview),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

// Deferred definitions: the provider holds each back until a response of the loader loads it, so one line each, and the
// definition of those loaded (they are in the prompt, where the loading response is).
function deferredLines(
  request: LlmRequest,
  provenance: Provenance,
  style: Style,
  tokens: RequestTokenCount | undefined,
): string[] {
  const deferred = request.deferredTools as NonNullable<LlmRequest['deferredTools']>;
  const loaded = new Set(referencedDeferredTools(request).map((tool) => tool.name));
  const bar = style.dim('│');
  const lines = [
    style.bold(
      `DEFERRED TOOLS · ${deferred.declarations.length}, ${loaded.size} loaded by ${deferred.loader}${tokens === undefined ? '' : style.yellow(` · ${tokens.deferred.total} tokens`)}`,
    ),
  ];
  deferred.declarations.forEach((tool, index) => {
    const state = loaded.has(tool.name)
      ? style.yellow(` · loaded, ${tokens?.deferred.each[index] ?? '?'} tokens`)
      : style.dim(' · held back');
    lines.push(
      `${style.dim('┌')} ${style.cyan(`deferred[${index}]`)} ${style.bold(tool.name)} · ${describeSource(provenance.deferredTools?.[index])}${state}`,
    );
    if (!loaded.has(tool.name)) return;
    lines.push(...tool.description.split('\n').map((line) => `${bar} ${line}`));
    if (tool.parameters !== undefined)
      lines.push(`${bar} ${style.dim('parameters:')} ${JSON.stringify(tool.parameters)}`);
  });
  return lines;
}

// The text of some pieces, with what hooks wrote in it marked (underlined on a terminal).
function marked(text: string, pieces: readonly TextPiece[], style: Style): string {
  if (pieces.length === 0) return text;
  return pieces
    .map((piece) =>
      piece.edit === undefined
        ? text.slice(piece.start, piece.end)
        : markLines(text.slice(piece.start, piece.end), style),
    )
    .join('');
}

// Each line marked on its own, so a mark never runs across the bar at the start of the next line.
function markLines(text: string, style: Style): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : style.underline(line)))
    .join('\n');
}

// One line per edit in a text: what a hook wrote, where, and what it replaced (a deletion writes nothing).
function editLines(text: string, edits: readonly RequestEdit[], offset: number, bar: string, style: Style): string[] {
  return edits.map((edit) => {
    const wrote =
      edit.start === edit.end
        ? `removed ${JSON.stringify(short(edit.replaced ?? ''))} at ${edit.start - offset}`
        : `${JSON.stringify(short(text.slice(edit.start, edit.end)))} at ${edit.start - offset}–${edit.end - offset}`;
    const replaced =
      edit.replaced === undefined || edit.start === edit.end
        ? ''
        : `, in place of ${JSON.stringify(short(edit.replaced))}`;
    return `${bar} ${style.dim(`↳ ${wrote} · written by ${describeSource(edit.by)}${replaced}`)}`;
  });
}

// One line per memory a source put into the request: which session and event it was taken from, its author and time.
function memoryLines(source: Source | undefined, bar: string, style: Style): string[] {
  return (source?.memories ?? []).map((memory) => {
    const where =
      memory.sessionId === undefined
        ? `memory ${memory.id}, written directly`
        : `memory from session ${memory.sessionId}, event ${memory.eventId ?? '?'}`;
    const who = [memory.author, memory.timestamp].filter((item) => item !== undefined).join(', ');
    return `${bar} ${style.dim(`↳ ${where}${who === '' ? '' : ` (${who})`}`)}`;
  });
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** Where a text occurs, one line per place. */
export function formatOccurrences(text: string, occurrences: readonly Occurrence[], style: Style): string {
  if (occurrences.length === 0)
    return `${style.yellow('not found')}: ${JSON.stringify(text)} is nowhere in the request\n`;
  const width = Math.max(...occurrences.map((occurrence) => occurrence.path.length));
  const lines = occurrences.map(
    (occurrence) =>
      `${occurrence.path.padEnd(width)}  ${style.dim(`@${occurrence.start}`)}  ${describeSource(occurrence.source)}`,
  );
  lines.push(style.dim(`${plural(occurrences.length, 'occurrence')} of ${JSON.stringify(text)}`));
  return `${lines.join('\n')}\n`;
}

function partText(part: Part): string {
  if ('text' in part) return (part.thought === true ? `(thought) ${part.text}` : part.text) + metadataNote(part);
  if ('functionCall' in part)
    return `call ${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})${part.functionCall.id === undefined ? '' : ` id=${part.functionCall.id}`}${metadataNote(part)}`;
  if ('functionResponse' in part)
    return `result of ${part.functionResponse.name}: ${JSON.stringify(part.functionResponse.response ?? null)}`;
  if ('inlineData' in part)
    return `[inline data ${part.inlineData.mimeType}, ${Math.floor((part.inlineData.data.length * 3) / 4)} bytes]`;
  if ('fileData' in part) return `[file ${part.fileData.fileUri}]`;
  if ('executableCode' in part) return `[code ${part.executableCode.language}]\n${part.executableCode.code}`;
  return `[code result ${part.codeExecutionResult.outcome}] ${part.codeExecutionResult.output ?? ''}`;
}

// Opaque provider data travels with the part but is not text: named, with its size, by provider and field.
function metadataNote(part: { providerMetadata?: ProviderMetadata }): string {
  const entries = Object.entries(part.providerMetadata ?? {}).flatMap(([provider, data]) =>
    Object.entries(data).map(([field, value]) => `${provider} ${field}, ${JSON.stringify(value).length} chars`),
  );
  return entries.length === 0 ? '' : `[provider data: ${entries.join('; ')}]`;
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
