/**
 * @module The recall benchmark's --reembed step: `memory-pool reembed`'s work (a new collection and its parts
 * index, then the switch) for every bot, to the model it already uses, beside the running service.
 */
import type { MemoryPoolConfig } from '../../src/config/config-types.js';
import type { Embedder } from '../../src/embedding/embedder.js';
import { openSqliteJournal } from '../../src/journal/sqlite/sqlite-journal.js';
import { reembedCollection } from '../../src/maintenance/reembed-collection.js';
import { createQdrantPointStore } from '../../src/store/qdrant/qdrant-point-store.js';
import { createQdrantStoreAdmin } from '../../src/store/qdrant/qdrant-store-admin.js';

/** Re-embeds and switches every bot; says what each moved. Throws when one did not switch. */
export async function reembedEveryBot(
  config: MemoryPoolConfig,
  storeUrl: string,
  embedder: Embedder,
): Promise<string> {
  const options = { url: storeUrl, timeoutMs: 60_000 };
  const journal = openSqliteJournal(config.dataDir);
  const summaries: string[] = [];
  try {
    for (const bot of Object.values(config.bots)) {
      const summary = await reembedCollection(
        {
          store: createQdrantPointStore(options),
          admin: createQdrantStoreAdmin(options),
          journal,
          embedder,
          // The benchmark's own section (the product's defaults), as reembed records a --to file's.
          embedding: JSON.stringify(config.embedding),
          bots: config.bots,
        },
        // A rebuild: the model is the one in use, which a plain reembed would call nothing to do.
        { bot, action: 'build', dryRun: false, serveRunning: true, rebuild: true },
      );
      if (!summary.switched) throw new Error(`${bot.name}: not switched: ${summary.pending}`);
      summaries.push(`${summary.to} (${summary.sync?.embedded} chunks, ${summary.parts?.parts} parts)`);
    }
  } finally {
    await journal.close();
  }
  return summaries.join(', ');
}
