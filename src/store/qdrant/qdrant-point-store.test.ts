import { readEnv } from '../../runtime/read-env.js';
import { startTestQdrant } from '../../service/test-support/start-test-qdrant.js';
import { describePointStoreContract } from '../test-support/point-store-contract.js';
import { createQdrantPointStore } from './qdrant-point-store.js';
import { createQdrantStoreAdmin } from './qdrant-store-admin.js';

// Against a real Qdrant: QDRANT_URL=http://localhost:6333 [QDRANT_API_KEY=…] npm test -- qdrant-point-store
describePointStoreContract(
  readEnv(process.env, 'QDRANT_URL')
    ? 'the Qdrant adapter over the Qdrant at QDRANT_URL'
    : 'the Qdrant adapter over the embedded store',
  async () => {
    const qdrant = await startTestQdrant();
    const options = { url: qdrant.url, ...(qdrant.apiKey ? { apiKey: qdrant.apiKey } : {}) };
    const admin = createQdrantStoreAdmin(options);
    const runId = Math.random().toString(36).slice(2, 8);
    const created: string[] = [];
    return {
      store: createQdrantPointStore(options),
      uniqueCollection: (prefix) => {
        const name = `mp_${prefix}_${runId}_${created.length}`;
        created.push(name);
        return name;
      },
      async close() {
        // Best effort: a failed cleanup must not hide the result that matters.
        await Promise.all(created.map((name) => admin.deleteCollection(name).catch(() => {})));
        await qdrant.close();
      },
    };
  },
);
