import type { Content } from './content.js';
import type { Event } from './event.js';
import type { EmbedResponse, Model } from './model.js';
import type { Session } from './session.js';

/** Whose memories: ADK scopes every memory by app and user, and nothing crosses that pair. */
export type MemoryScope = { readonly appName: string; readonly userId: string };

/** Where a memory came from, for provenance and deletion: the session and event it was taken from. */
export type MemorySource = { readonly sessionId?: string; readonly eventId?: string };

/**
 * One thing remembered (ADK's `MemoryEntry`): its content, who said it and when (ISO 8601, as the model is told), and
 * metadata of the caller's. agentctx gives every entry an `id` (ADK's is optional) so it can be deleted.
 */
export type MemoryEntry = {
  readonly id: string;
  readonly content: Content;
  readonly author?: string;
  readonly timestamp?: string;
  readonly customMetadata?: Readonly<Record<string, unknown>>;
  readonly source?: MemorySource;
};

/** A memory written directly (`addMemory`): an id of the caller's is kept, else one is made. */
export type MemoryInput = Omit<MemoryEntry, 'id'> & { readonly id?: string };

export type SearchMemoryResponse = { readonly memories: readonly MemoryEntry[] };

// How a service that embeds with a model has the call recorded: the runner passes its own with every memory call it
// makes, so the embedding is logged and priced as a call of the invocation (operation `embeddings`). Without it, a
// service calls the model directly.
type Recording = {
  readonly recordEmbedding?: (
    model: Model,
    texts: readonly string[],
    purpose: 'query' | 'document',
  ) => Promise<EmbedResponse>;
};

/**
 * A store of what users said in earlier sessions, searched in later ones (ADK's `BaseMemoryService`), with what ADK
 * lacks: listing, and deleting an entry, a session's memories or a user's. Every method is scoped by app and user.
 * `testing/conformance/memory-service.ts` is the suite every implementation passes.
 */
export type MemoryService = {
  /**
   * Remembers a session's events with content (ADK's `add_session_to_memory`): adding the same session again
   * replaces what it remembered of it, so ingestion is idempotent.
   */
  addSessionToMemory(session: Session, options?: Recording): Promise<void>;
  /** Remembers more events of a session (a delta: ADK's `add_events_to_memory`); an event already remembered is skipped. */
  addEventsToMemory(
    input: MemoryScope &
      Recording & {
        readonly events: readonly Event[];
        readonly sessionId?: string;
        readonly customMetadata?: Readonly<Record<string, unknown>>;
      },
  ): Promise<void>;
  /** Remembers entries directly (ADK's `add_memory`); returns them as stored, ids included. */
  addMemory(
    input: MemoryScope &
      Recording & {
        readonly memories: readonly MemoryInput[];
        readonly customMetadata?: Readonly<Record<string, unknown>>;
      },
  ): Promise<MemoryEntry[]>;
  /** The memories that match a query, best first (ADK's `search_memory`). */
  searchMemory(input: MemoryScope & Recording & { readonly query: string }): Promise<SearchMemoryResponse>;
  /** Every memory of the user (or of one of their sessions), oldest first. */
  listMemories(input: MemoryScope & { readonly sessionId?: string }): Promise<MemoryEntry[]>;
  /** Deletes one memory; false when there is none of that id. */
  deleteMemory(input: MemoryScope & { readonly id: string }): Promise<boolean>;
  /** Deletes every memory taken from one session; how many there were. */
  deleteSessionMemories(input: MemoryScope & { readonly sessionId: string }): Promise<number>;
  /** Deletes every memory of the user in the app; how many there were. */
  deleteUserMemories(input: MemoryScope): Promise<number>;
};
