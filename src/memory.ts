/**
 * @module agentctx/memory
 * Memory across sessions (ADK's memory service): what a user said in one session, found and given to the model in a
 * later one. `createInMemoryMemoryService()` keeps it in this process (ADK 2.5.0's word rule, or agentctx's ranking);
 * pass it to `createRunner({ memory })`. `loadMemory()` lets the model search it (ADK's `load_memory`),
 * `preloadMemory()` puts what matches the user's message into every request (ADK's `preload_memory`, placed where a
 * prompt cache survives it). Contexts remember a session with `context.addSessionToMemory()`.
 */
export { createInMemoryMemoryService } from './engine/memory/in-memory-memory-service.js';
export { loadMemory } from './features/memory-tools/load-memory.js';
export { preloadMemory } from './features/memory-tools/preload-memory.js';
export type { MemoryEntry, MemoryService, SearchMemoryResponse } from './contracts/memory-service.js';
