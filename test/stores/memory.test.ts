import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { testArtifactStore, testSessionStore } from '../../src/testing/conformance/index.js';

testSessionStore({ name: 'memory', create: (clock) => createInMemorySessionStore(clock) });
testArtifactStore({ name: 'memory', create: () => createInMemoryArtifactStore() });
