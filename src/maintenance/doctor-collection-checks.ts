/**
 * @module `memory-pool doctor`'s checks of each bot's collection: a layout the bot writes (classified by the
 * same code that writes it, st-collection-layout.ts), vectors of the size and distance of the model serve
 * embeds with (after `memory-pool reembed`, the model the journal recorded), and no text index on messageIds.
 */
import type { BotConfig, MemoryPoolConfig } from '../config/config-types.js';
import { parseEmbeddingSection } from '../config/load-embedding-section.js';
import { createEmbedder } from '../embedding/create-embedder.js';
import type { Journal } from '../journal/journal.js';
import type { CollectionShape, PointStore } from '../store/point-store.js';
import { readStLayout, ST_SPARSE_VECTOR } from '../store/st-hybrid/st-collection-layout.js';
import type { CollectionLayout, StoreAdmin } from '../store/store-admin.js';
import { type DoctorCheck, fail, pass } from './doctor-check.js';
import { describeVectorPlacement } from './doctor-vector-placement.js';
import { describeModel, sameModel } from '../config/same-model.js';
import { countNoun } from '../runtime/count-noun.js';

type Model = { readonly model: string; readonly dimensions: number | undefined };

export interface CollectionCheckDeps {
  readonly store: PointStore;
  readonly admin: StoreAdmin;
  readonly journal: Journal;
}

/** Each bot's collection fits what memory-pool and st-qdrant-memory write and search. */
export async function checkCollections(
  deps: CollectionCheckDeps,
  config: MemoryPoolConfig,
  configured: Model,
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  for (const bot of Object.values(config.bots))
    checks.push(...(await checkBotCollection(deps, bot, configured)));
  return checks;
}

async function checkBotCollection(
  deps: CollectionCheckDeps,
  bot: BotConfig,
  configured: Model,
): Promise<DoctorCheck[]> {
  const { journal } = deps;
  const collection = await journal.routes.activeCollection(bot.collection);
  const name = `bot ${bot.name}: collection ${collection}`;
  const [shape, details] = await Promise.all([
    deps.store.describeCollection(collection),
    deps.admin.readCollection(collection),
  ]);
  if (shape === undefined || details === undefined) {
    return [pass(name, 'not created yet: the first save creates it with the embedder’s size')];
  }
  const checks: DoctorCheck[] = [];
  const serve = await readServeModel(journal, collection, configured);
  if ('error' in serve) {
    checks.push(
      fail(
        `bot ${bot.name}: recorded embedding`,
        serve.error,
        `Set the environment variables it names, or switch back with \`memory-pool reembed --bot ${bot.name} --rollback\`.`,
      ),
    );
  } else if (serve.written !== undefined) {
    // A fail, not a note: serve follows the journal and works, but import, restore's model check and a
    // serve started without this journal embed with the config's model, against vectors of another.
    const configName = `bot ${bot.name}: config names the model serve uses`;
    checks.push(
      sameModel(serve, configured)
        ? pass(configName, `${describeModel(configured)}, as memory-pool reembed recorded for ${collection}`)
        : fail(
            configName,
            `the config still names ${describeModel(configured)}; serve uses the recorded ${describeModel(serve)} for ${collection} (memory-pool reembed switched it)`,
            `Set embedding: in the config to the recorded settings ${serve.written} (or switch back with \`memory-pool reembed --bot ${bot.name} --rollback\`).`,
          ),
    );
  }
  const layout = readWritableLayout(shape, details.layout);
  if ('problem' in layout) {
    checks.push(
      fail(
        name,
        layout.problem,
        `Point bots.${bot.name}.collection at another collection (memory-pool creates it on first save), or recreate ${collection} in a layout memory-pool writes: one unnamed vector, or st-qdrant-memory's hybrid "dense" + "${ST_SPARSE_VECTOR}".`,
      ),
    );
  } else {
    const expected = 'error' in serve ? configured : serve;
    const recorded = await journal.collectionModel(collection);
    const problems = vectorProblems(recorded, layout, expected, serve);
    checks.push(
      problems.length > 0
        ? fail(
            name,
            problems.map((p) => p.problem).join('; '),
            [...new Set(problems.map((p) => p.fix(bot.name)))].join(' '),
          )
        : pass(
            name,
            `${countNoun(details.pointsCount, 'point')}, ${layout.describe}, model ${recorded?.model ?? 'not recorded yet'}`,
          ),
    );
  }
  checks.push(checkMessageIdsIndex(bot, collection, details.payloadIndexes.messageIds));
  // Where the vectors live, the collection's and its parts index's (when there is one).
  const parts = `${collection}__parts`;
  const partsDetails = await deps.admin.readCollection(parts);
  for (const [at, found] of [
    [collection, details],
    [parts, partsDetails],
  ] as const) {
    const placement =
      found === undefined ? undefined : describeVectorPlacement(bot.name, at, found.layout.vectors);
    if (placement !== undefined) checks.push(placement);
  }
  return checks;
}

/** The model serve embeds `collection` with: the section a reembed recorded for it, else the config's. */
async function readServeModel(
  journal: Journal,
  collection: string,
  configured: Model,
): Promise<(Model & { readonly written?: string }) | { readonly error: string }> {
  const written = await journal.routes.embeddingOf(collection);
  if (written === undefined) return configured;
  try {
    const recorded = createEmbedder(
      parseEmbeddingSection(written, `the embedding reembed recorded for ${collection}`),
    );
    // A provider without a stated size: the size the journal recorded when the collection was built.
    const dimensions = recorded.dimensions ?? (await journal.collectionModel(collection))?.dimensions;
    return { model: recorded.model, dimensions, written };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

type WritableLayout =
  | { readonly size: number; readonly distance: unknown; readonly describe: string }
  | { readonly problem: string };

/**
 * The dense vector memory-pool writes, when every vector the collection declares gets a value from it;
 * otherwise which vectors it cannot write (they would stay empty on its points, so searches over them miss them).
 */
function readWritableLayout(shape: CollectionShape, raw: CollectionLayout): WritableLayout {
  const layout = readStLayout(shape);
  const sparse = Object.keys(shape.sparseVectors ?? {});
  if (layout.kind === 'unnamed') {
    if (shape.vectorSize === undefined) {
      return {
        problem: `has no dense vector memory-pool can write (sparse only: ${sparse.join(', ') || 'none'})`,
      };
    }
    if (sparse.length > 0) {
      return {
        problem: `has one unnamed vector and sparse vectors (${sparse.join(', ')}) that memory-pool never writes`,
      };
    }
    const distance = shape.distance;
    return {
      size: shape.vectorSize,
      distance,
      describe: `one unnamed ${shape.vectorSize}-d ${distance} vector`,
    };
  }
  const writes = layout.kind === 'hybrid' ? [layout.dense, ST_SPARSE_VECTOR] : [layout.dense];
  const unwritten = [...shape.namedVectors, ...sparse].filter((v) => !writes.includes(v));
  if (unwritten.length > 0) {
    return {
      problem: `has vectors memory-pool cannot write (${unwritten.join(', ')}): it writes only ${writes.map((v) => `"${v}"`).join(' and ')}, so its points would miss them`,
    };
  }
  if (layout.size === undefined) return { problem: `its dense vector "${layout.dense}" states no size` };
  const named = (raw.vectors ?? {}) as Record<string, { distance?: unknown } | undefined>;
  const distance = named[layout.dense]?.distance;
  const kind =
    layout.kind === 'hybrid'
      ? `st-qdrant-memory's hybrid layout ("${ST_SPARSE_VECTOR}" beside it)`
      : 'one named vector';
  return {
    size: layout.size,
    distance,
    describe: `"${layout.dense}" ${layout.size}-d ${String(distance)}, ${kind}`,
  };
}

const otherModelFix = (bot: string) =>
  `Configure the model that made the collection again, or move it to the new model with \`memory-pool reembed --bot ${bot} --to <file>\`.`;
// memory-pool creates Cosine collections and its (and st-qdrant-memory's) score thresholds assume Cosine.
const distanceFix = (bot: string) =>
  `Point bots.${bot}.collection at a new collection: memory-pool creates it with Cosine on first save.`;

function vectorProblems(
  /** The model the journal recorded for the collection, if any. */
  recorded: { readonly model: string } | undefined,
  layout: { readonly size: number; readonly distance: unknown },
  expected: Model,
  serve: Model | { readonly error: string },
): { readonly problem: string; readonly fix: (bot: string) => string }[] {
  const recordedSection = !('error' in serve) && 'written' in serve;
  const maker = recordedSection ? `the recorded model ${expected.model} makes` : 'the embedder makes';
  const problems: { problem: string; fix: (bot: string) => string }[] = [];
  if (expected.dimensions !== undefined && layout.size !== expected.dimensions) {
    problems.push({
      problem: `holds ${layout.size}-dimensional vectors, ${maker} ${expected.dimensions}`,
      fix: otherModelFix,
    });
  }
  if (layout.distance !== 'Cosine') {
    problems.push({ problem: `uses ${String(layout.distance)} distance, not Cosine`, fix: distanceFix });
  }
  if (recorded && recorded.model !== expected.model) {
    problems.push({
      problem: `was written with ${recorded.model}, ${recordedSection ? 'the model reembed recorded for it is' : 'the config embeds with'} ${expected.model}`,
      fix: otherModelFix,
    });
  }
  return problems;
}

function checkMessageIdsIndex(bot: BotConfig, collection: string, index: string | undefined): DoctorCheck {
  const name = `bot ${bot.name}: no full-text index on messageIds`;
  return index === 'text'
    ? fail(
        name,
        `${collection} has a full-text index on messageIds: st-qdrant-memory's duplicate check then matches words, not the whole id list`,
        `Delete it: curl -X DELETE <store>/collections/${collection}/index/messageIds`,
      )
    : pass(name, index === undefined ? 'no index on messageIds' : `a ${index} index`);
}
