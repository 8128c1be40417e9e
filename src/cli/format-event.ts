import type { Event } from '../contracts/event.js';
import { describeStateOp } from '../engine/state/state-changes.js';
import type { Style } from './style.js';

/** One event as lines a person reads while an agent runs. */
export function formatEvent(event: Event, style: Style): string {
  const who = style.bold(`[${event.author}]`);
  const lines: string[] = [];
  if (event.errorCode !== undefined)
    lines.push(`${who} ${style.red(`✗ ${event.errorCode}: ${event.errorMessage ?? ''}`)}`);
  for (const part of event.content?.parts ?? []) {
    if ('text' in part)
      lines.push(part.thought === true ? `${who} ${style.dim(`(thinking) ${part.text}`)}` : `${who} ${part.text}`);
    else if ('functionCall' in part)
      lines.push(
        `${who} ${style.cyan(`→ ${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})`)}`,
      );
    else if ('functionResponse' in part)
      lines.push(
        `${who} ${style.cyan(`← ${part.functionResponse.name}: ${JSON.stringify(part.functionResponse.response ?? null)}`)}`,
      );
    else lines.push(`${who} ${style.dim('[data]')}`);
  }
  const { stateDelta, stateOps = [], transferToAgent, escalate } = event.actions;
  const changes = [
    ...Object.keys(stateDelta).map((key) => `${key}=${short(JSON.stringify(stateDelta[key]))}`),
    ...stateOps.map((op) => describeStateOp(op, (value) => short(JSON.stringify(value)))),
  ];
  if (changes.length > 0) lines.push(style.dim(`    state: ${changes.join(', ')}`));
  if (transferToAgent !== undefined) lines.push(style.yellow(`    ⇢ transfer to ${transferToAgent}`));
  if (escalate === true) lines.push(style.yellow('    ⇡ escalate'));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function short(text: string | undefined): string {
  if (text === undefined) return 'undefined';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
