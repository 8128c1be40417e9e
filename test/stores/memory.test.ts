import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import { createInMemoryModelCallLog } from '../../src/engine/session/in-memory-call-log.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { testArtifactStore, testModelCallLog, testSessionStore } from '../../src/testing/conformance/index.js';

testSessionStore({ name: 'memory', create: (clock) => createInMemorySessionStore(clock) });
testModelCallLog({ name: 'memory', create: (clock) => createInMemorySessionStore(clock) });
testModelCallLog({ name: 'memory log of its own', create: () => createInMemoryModelCallLog() });
testArtifactStore({ name: 'memory', create: () => createInMemoryArtifactStore() });
