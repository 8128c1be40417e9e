import type { Content, Part } from '../../contracts/content.js';
import { withoutProviderMetadata } from '../../engine/session/parts.js';
import type { StoredArtifact } from '../../contracts/artifact.js';
import type { Event, Usage } from '../../contracts/event.js';
import type { Session } from '../../contracts/session.js';

/*
 * The JSON ADK's API server sends, from agentctx's sessions and events. Keys are camelCase, as both ADK servers emit
 * them; fields without a value are left out, never null. Times are seconds since the epoch with a fraction, as ADK
 * Python sends them and as the dev UI's session list reads them (@google/adk-devtools 2.0.0 sends milliseconds).
 * docs/adk-compatibility.md lists every difference from either server.
 */

/** ADK's `usageMetadata`: Gemini's names, output without the thinking tokens, which have their own count. */
export type AdkUsageMetadata = {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
};

export type AdkEventJson = Record<string, unknown> & {
  id: string;
  invocationId: string;
  author: string;
  timestamp: number;
  actions: Record<string, unknown>;
};

export type AdkSessionJson = {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: AdkEventJson[];
  lastUpdateTime: number;
};

/**
 * A message as ADK's Part model takes it: ADK has no field for providers' opaque data (its models refuse unknown
 * fields), so it is left out; the part itself stays.
 */
function adkContent(content: Content): Content {
  if (!content.parts.some((part) => 'providerMetadata' in part)) return content;
  return { ...content, parts: content.parts.map(withoutProviderMetadata) };
}

/** An event as ADK serializes it. */
export function toAdkEvent(event: Event): AdkEventJson {
  const { actions } = event;
  const usage = event.usage === undefined ? undefined : toUsageMetadata(event.usage);
  return {
    ...(event.content === undefined ? {} : { content: adkContent(event.content) }),
    ...(event.partial === true ? { partial: true } : {}),
    ...(event.errorCode === undefined ? {} : { errorCode: event.errorCode }),
    ...(event.errorMessage === undefined ? {} : { errorMessage: event.errorMessage }),
    ...(usage === undefined ? {} : { usageMetadata: usage }),
    invocationId: event.invocationId,
    author: event.author,
    actions: {
      ...(actions.skipSummarization === undefined ? {} : { skipSummarization: actions.skipSummarization }),
      stateDelta: actions.stateDelta,
      artifactDelta: actions.artifactDelta,
      ...(actions.transferToAgent === undefined ? {} : { transferToAgent: actions.transferToAgent }),
      ...(actions.escalate === undefined ? {} : { escalate: actions.escalate }),
      requestedAuthConfigs: actions.requestedAuthConfigs ?? {},
      requestedToolConfirmations: actions.requestedToolConfirmations ?? {},
      ...(actions.compaction === undefined
        ? {}
        : {
            compaction: {
              startTimestamp: actions.compaction.startTimestamp,
              endTimestamp: actions.compaction.endTimestamp,
              compactedContent: actions.compaction.compactedContent,
            },
          }),
      ...(actions.rewindBeforeInvocationId === undefined
        ? {}
        : { rewindBeforeInvocationId: actions.rewindBeforeInvocationId }),
    },
    longRunningToolIds: event.longRunningToolIds ?? [],
    ...(event.branch === undefined ? {} : { branch: event.branch }),
    id: event.id,
    timestamp: event.timestamp,
  };
}

/** A session as ADK serializes it; `events: false` leaves them out (`[]`), as its session list does. */
export function toAdkSession(session: Session, options: { events?: boolean } = {}): AdkSessionJson {
  return {
    id: session.id,
    appName: session.appName,
    userId: session.userId,
    state: session.state,
    events: options.events === false ? [] : session.events.map(toAdkEvent),
    lastUpdateTime: session.lastUpdateTime,
  };
}

/** Usage in ADK's (Gemini's) names. */
export function toUsageMetadata(usage: Usage): AdkUsageMetadata | undefined {
  const thoughts = usage.reasoningTokens;
  const candidates = usage.outputTokens === undefined ? undefined : usage.outputTokens - (thoughts ?? 0);
  const total =
    usage.totalTokens ??
    (usage.promptTokens === undefined && usage.outputTokens === undefined
      ? undefined
      : (usage.promptTokens ?? 0) + (usage.outputTokens ?? 0));
  const metadata: AdkUsageMetadata = {
    ...(usage.promptTokens === undefined ? {} : { promptTokenCount: usage.promptTokens }),
    ...(candidates === undefined ? {} : { candidatesTokenCount: candidates }),
    ...(usage.cachedTokens === undefined ? {} : { cachedContentTokenCount: usage.cachedTokens }),
    ...(thoughts === undefined ? {} : { thoughtsTokenCount: thoughts }),
    ...(total === undefined ? {} : { totalTokenCount: total }),
  };
  return Object.keys(metadata).length === 0 ? undefined : metadata;
}

/** An artifact as the `Part` ADK returns for it: text as text, anything else as base64 inline data. */
export function artifactPart(artifact: StoredArtifact): Part {
  if (artifact.kind === 'text') return { text: artifact.text };
  return { inlineData: { mimeType: artifact.mimeType, data: Buffer.from(artifact.data).toString('base64') } };
}
