/**
 * @module TEMPORARY experiment switches for issue 35's second look (MP_HOP=name:params), measured with the
 * recall benchmark; not for merge.
 */
import { partsCollectionName } from '../parts/parts-collection-name.js';
import { encodeQueryTerms } from '../parts/sparse-vector.js';
import { tokenizeText } from '../parts/tokenize-text.js';
import { DENSE_VECTOR, SPARSE_VECTOR } from '../store/hybrid-point-store.js';
import type { MemoryStore } from '../store/memory-store.js';
import type { StoreFilter } from '../store/point-store.js';
import type { FusedEntry } from './fuse-scores.js';
import type { HybridRanking } from './search-hybrid.js';

export interface HopContext {
  readonly store: MemoryStore;
  readonly collection: string;
  readonly filter: StoreFilter | undefined;
  readonly vector: readonly number[];
  readonly queryText: string;
  readonly ranking: HybridRanking;
  readonly embed?: (text: string) => Promise<Float32Array | readonly number[] | undefined>;
}

interface PartInfo {
  text: string;
  timestamp: number;
  chunkId: string;
}

const key = (e: FusedEntry) => (e.part ? `part:${e.part.id}` : `chunk:${e.chunkId}`);

async function readParts(ctx: HopContext, entries: readonly FusedEntry[]): Promise<Map<string, PartInfo>> {
  const ids = entries.flatMap((e) => (e.part ? [e.part.id] : []));
  const records = await ctx.store.retrievePoints(partsCollectionName(ctx.collection), ids);
  return new Map(
    records.map((r) => [
      String(r.id),
      {
        text: String(r.payload.text ?? ''),
        timestamp: Number(r.payload.timestamp ?? 0),
        chunkId: String(r.payload.chunkId ?? ''),
      },
    ]),
  );
}

const day = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const resort = (entries: FusedEntry[]) => entries.sort((a, b) => b.fused - a.fused);
const withFused = (e: FusedEntry, fused: number): FusedEntry => ({ ...e, fused });

/** Speakers named in a part's `Name: text` lines. */
const speakersOf = (text: string) =>
  new Set(
    text
      .split('\n')
      .flatMap((l) => (/^([^:\n]{1,40}):/.exec(l)?.[1] ? [/^([^:\n]{1,40}):/.exec(l)![1]!] : [])),
  );

export async function applyHopExperiment(ctx: HopContext): Promise<HybridRanking> {
  const spec = process.env.MP_HOP;
  if (!spec) return ctx.ranking;
  const [name, ...raw] = spec.split(':');
  const p = raw.map(Number);
  const entries = [...ctx.ranking.entries];
  const top = entries.slice(0, 400);
  if (name === 'sessagg' || name === 'chunkagg') {
    // Session (day) or chunk score: sum of its k best fused; entry += w × normalized.
    const [w = 0.1, k = 3] = p;
    const info = await readParts(ctx, top);
    const group = (e: FusedEntry) =>
      name === 'chunkagg' ? e.chunkId : e.part ? day(info.get(e.part.id)?.timestamp ?? 0) : e.chunkId;
    const lists = new Map<string, number[]>();
    for (const e of top) lists.set(group(e), [...(lists.get(group(e)) ?? []), e.fused]);
    const score = new Map([...lists].map(([g, l]) => [g, l.slice(0, k).reduce((s, x) => s + x, 0)]));
    const max = Math.max(...score.values(), 1e-9);
    return {
      ...ctx.ranking,
      entries: resort(top.map((e) => withFused(e, e.fused + (w * score.get(group(e))!) / max))),
    };
  }
  if (name === 'quota') {
    // First k passages free, then at most q passages per session (day); the rest deferred.
    const [k = 3, q = 2] = p;
    const info = await readParts(ctx, top);
    const out: FusedEntry[] = [];
    const later: FusedEntry[] = [];
    const covered = new Set<string>();
    const perSession = new Map<string, number>();
    for (const e of top) {
      const ids = e.part ? e.part.messageIds.split(',') : [];
      const fresh = ids.filter((id) => !covered.has(id));
      const s = e.part ? day(info.get(e.part.id)?.timestamp ?? 0) : e.chunkId;
      const n = perSession.get(s) ?? 0;
      if (fresh.length > 0 && out.length >= k && n >= q) {
        later.push(e);
        continue;
      }
      out.push(e);
      if (fresh.length > 0) {
        for (const id of fresh) covered.add(id);
        perSession.set(s, n + 1);
      }
    }
    return { ...ctx.ranking, entries: [...out, ...later] };
  }
  if (name === 'recip') {
    // Entries found by the question and among a top hit's dense neighbors gain w × neighbor cosine (min-max).
    const [t = 3, n = 50, w = 0.2] = p;
    const seeds = top.filter((e) => e.part).slice(0, t);
    const vectors = await ctx.store.retrieveDenseVectors(
      partsCollectionName(ctx.collection),
      seeds.map((e) => e.part!.id),
    );
    const boost = new Map<string, number>();
    for (const v of vectors.values()) {
      const found = await ctx.store.queryPoints(partsCollectionName(ctx.collection), {
        query: v,
        using: DENSE_VECTOR,
        limit: n,
        withPayload: ['chunkId'],
        ...(ctx.filter ? { filter: ctx.filter } : {}),
      });
      const scores = found.slice(1).map((f) => f.score);
      const lo = Math.min(...scores);
      const hi = Math.max(...scores);
      for (const f of found.slice(1)) {
        const norm = hi > lo ? (f.score - lo) / (hi - lo) : 1;
        const k = `part:${String(f.id)}`;
        boost.set(k, Math.max(boost.get(k) ?? 0, norm));
      }
    }
    const seedKeys = new Set(seeds.map(key));
    return {
      ...ctx.ranking,
      entries: resort(
        top.map((e) => (seedKeys.has(key(e)) ? e : withFused(e, e.fused + w * (boost.get(key(e)) ?? 0)))),
      ),
    };
  }
  if (name === 'cover') {
    // Greedy: fused + w × share of the question's terms not yet covered that the part holds.
    const [w = 0.2, m = 150] = p;
    const q = new Set(tokenizeText(ctx.queryText));
    if (q.size === 0) return ctx.ranking;
    const pool = top.slice(0, m);
    const info = await readParts(ctx, pool);
    const terms = new Map(
      pool.map((e) => [key(e), new Set(tokenizeText(e.part ? (info.get(e.part.id)?.text ?? '') : ''))]),
    );
    const uncovered = new Set(q);
    const out: FusedEntry[] = [];
    const left = new Set(pool);
    while (left.size > 0) {
      let best: FusedEntry | undefined;
      let bestScore = -Infinity;
      for (const e of left) {
        const t = terms.get(key(e))!;
        let gain = 0;
        for (const x of uncovered) if (t.has(x)) gain += 1;
        const s = e.fused + (w * gain) / q.size;
        if (s > bestScore) {
          bestScore = s;
          best = e;
        }
      }
      left.delete(best!);
      out.push(best!);
      for (const x of terms.get(key(best!))!) uncovered.delete(x);
    }
    return { ...ctx.ranking, entries: [...out, ...top.slice(m), ...entries.slice(400)] };
  }
  if (name === 'entity') {
    // The named person's lines: a sparse search with the question's terms and the top parts' shared terms,
    // kept where that person speaks, fused as a third signal at weight w.
    const [w = 0.2, nTop = 5, nTerms = 10, mode = 0] = p;
    const info = await readParts(ctx, top.slice(0, 60));
    const speakers = new Set<string>();
    for (const i of info.values()) for (const s of speakersOf(i.text)) speakers.add(s);
    const named = [...speakers].filter((s) => new RegExp(`\\b${s}\\b`).test(ctx.queryText));
    if (named.length !== 1) return ctx.ranking;
    const person = named[0]!;
    const qTerms = new Set(tokenizeText(ctx.queryText));
    const nameTerms = new Set([...speakers].flatMap((s) => tokenizeText(s)));
    const counts = new Map<string, number>();
    for (const e of top.filter((x) => x.part).slice(0, nTop)) {
      for (const t of new Set(tokenizeText(info.get(e.part!.id)?.text ?? ''))) {
        if (qTerms.has(t) || nameTerms.has(t) || /^\d+$/.test(t)) continue;
        counts.set(t, (counts.get(t) ?? 0) + 1);
      }
    }
    const salient = [...counts]
      .filter(([, c]) => c >= 2)
      .sort((a, b) => b[1] - a[1])
      .slice(0, nTerms)
      .map(([t]) => t);
    const terms = [...[...qTerms].filter((t) => !nameTerms.has(t)), ...salient];
    const sparse = encodeQueryTerms(terms);
    if (sparse.indices.length === 0) return ctx.ranking;
    const found = await ctx.store.queryPoints(partsCollectionName(ctx.collection), {
      query: sparse,
      using: SPARSE_VECTOR,
      limit: 400,
      withPayload: ['chunkId', 'messageIds', 'text'],
      ...(ctx.filter ? { filter: ctx.filter } : {}),
    });
    const kept = found.filter((f) =>
      mode === 1
        ? String(f.payload.text ?? '').startsWith(`${person}:`)
        : speakersOf(String(f.payload.text ?? '')).has(person),
    );
    if (kept.length === 0) return ctx.ranking;
    const hi = kept[0]!.score;
    const lo = kept[kept.length - 1]!.score;
    const byKey = new Map(entries.map((e) => [key(e), e]));
    for (const f of kept) {
      const k = `part:${String(f.id)}`;
      const norm = hi > lo ? (f.score - lo) / (hi - lo) : 1;
      const e = byKey.get(k);
      if (e) byKey.set(k, withFused(e, e.fused + w * norm));
      else
        byKey.set(k, {
          chunkId: String(f.payload.chunkId),
          part: { id: String(f.id), messageIds: String(f.payload.messageIds ?? '') },
          fused: w * norm,
          relative: 0,
          signals: {},
        });
    }
    return { ...ctx.ranking, entries: resort([...byKey.values()]) };
  }
  if (name === 'sessgroup') {
    // Sessions (days) ranked by the sum of their k best fused; entries grouped by session, best session first.
    const [k = 3] = p;
    const info = await readParts(ctx, top);
    const group = (e: FusedEntry) => (e.part ? day(info.get(e.part.id)?.timestamp ?? 0) : e.chunkId);
    const lists = new Map<string, number[]>();
    for (const e of top) lists.set(group(e), [...(lists.get(group(e)) ?? []), e.fused]);
    const score = new Map([...lists].map(([g, l]) => [g, l.slice(0, k).reduce((s, x) => s + x, 0)]));
    return {
      ...ctx.ranking,
      entries: [...top].sort((a, b) => score.get(group(b))! - score.get(group(a))! || b.fused - a.fused),
    };
  }
  if (name === 'personline') {
    // A question naming one speaker: parts where a line of theirs holds a content term of the question +w.
    const [w = 0.05] = p;
    const info = await readParts(ctx, top);
    const speakers = new Set<string>();
    for (const i of info.values()) for (const s of speakersOf(i.text)) speakers.add(s);
    const named = [...speakers].filter((s) => new RegExp(`\\b${s}\\b`).test(ctx.queryText));
    if (named.length !== 1) return ctx.ranking;
    const person = named[0]!;
    const nameTerms = new Set([...speakers].flatMap((s) => tokenizeText(s)));
    const q = new Set(tokenizeText(ctx.queryText).filter((t) => !nameTerms.has(t)));
    const holds = (e: FusedEntry) => {
      const text = e.part ? (info.get(e.part.id)?.text ?? '') : '';
      return text
        .split('\n')
        .filter((l) => l.startsWith(`${person}:`))
        .some((l) => tokenizeText(l.slice(person.length + 1)).some((t) => q.has(t)));
    };
    return { ...ctx.ranking, entries: resort(top.map((e) => (holds(e) ? withFused(e, e.fused + w) : e))) };
  }
  if (name === 'noname') {
    // The question without the speakers' names, embedded again: its cosine replaces (mode 0) or joins at w.
    return ctx.ranking;
  }
  if (name === 'msg') {
    // One-message passages: a message scores max + λ × second of the fused scores of the parts that hold it.
    const [lambda = 0] = p;
    const byMessage = new Map<string, { chunkId: string; best: FusedEntry; scores: number[] }>();
    const out: FusedEntry[] = [];
    for (const e of entries) {
      if (!e.part) {
        out.push(e);
        continue;
      }
      for (const id of e.part.messageIds.split(',')) {
        const k = `${e.chunkId}/${id}`;
        const m = byMessage.get(k);
        if (m) m.scores.push(e.fused);
        else byMessage.set(k, { chunkId: e.chunkId, best: e, scores: [e.fused] });
      }
    }
    for (const [k, m] of byMessage) {
      const id = k.slice(m.chunkId.length + 1);
      const score = m.scores[0]! + lambda * (m.scores[1] ?? 0);
      out.push({ ...m.best, part: { id: m.best.part!.id, messageIds: id }, fused: score });
    }
    return { ...ctx.ranking, entries: resort(out) };
  }
  if (name === 'quota2') {
    // Within the first n fresh passages: the first k free, then at most q per session; then fused order.
    const [k = 3, q = 2, n = 12] = p;
    const info = await readParts(ctx, top);
    const out: FusedEntry[] = [];
    const used = new Set<FusedEntry>();
    const covered = new Set<string>();
    const perSession = new Map<string, number>();
    let passages = 0;
    for (const e of top) {
      if (passages >= n) break;
      const ids = e.part ? e.part.messageIds.split(',') : [];
      const fresh = ids.filter((id) => !covered.has(id));
      if (fresh.length === 0) continue;
      const s = e.part ? day(info.get(e.part.id)?.timestamp ?? 0) : e.chunkId;
      const c = perSession.get(s) ?? 0;
      if (passages >= k && c >= q) continue;
      out.push(e);
      used.add(e);
      for (const id of fresh) covered.add(id);
      perSession.set(s, c + 1);
      passages += 1;
    }
    return { ...ctx.ranking, entries: [...out, ...entries.filter((e) => !used.has(e))] };
  }
  if (name === 'noname') {
    // BM25 without the speakers' names in the query (field weight 0 for names), the vector unchanged.
    const info = await readParts(ctx, top.slice(0, 60));
    const speakers = new Set<string>();
    for (const i of info.values()) for (const s of speakersOf(i.text)) speakers.add(s);
    let text = ctx.queryText;
    for (const s of speakers) text = text.replace(new RegExp(`\\b${s}('s)?\\b`, 'g'), ' ');
    if (text === ctx.queryText) return ctx.ranking;
    const { searchHybrid } = await import('./search-hybrid.js');
    return searchHybrid(ctx.store, {
      collection: ctx.collection,
      vector: ctx.vector,
      queryText: text,
      candidates: 100,
      scoreThreshold: 0.3,
      ...(ctx.filter ? { filter: ctx.filter } : {}),
    });
  }
  if (name === 'list') {
    // Only for a question asking for several things (a plural noun after what/which): session diversity.
    const [margin = 0.05, m = 150] = p;
    const AUX = new Set([
      'does',
      'has',
      'is',
      'was',
      'this',
      'his',
      'its',
      'us',
      'plans',
      'as',
      'yes',
      'always',
      'hers',
      'yours',
      'ours',
      'times',
    ]);
    const plural = (w: string | undefined) =>
      w !== undefined &&
      w.length > 3 &&
      w.endsWith('s') &&
      !AUX.has(w) &&
      !w.endsWith('ss') &&
      !w.endsWith('us');
    const match = /^(?:what|which)\s+(?:kinds? of |types? of |sorts? of )?([a-z]+)(?:\s+([a-z]+))?/i.exec(
      ctx.queryText.trim(),
    );
    const a = match?.[1]?.toLowerCase();
    const b = match?.[2]?.toLowerCase();
    if (!(plural(a) || (a !== undefined && !AUX.has(a) && plural(b) && !AUX.has(b!)))) return ctx.ranking;
    const pool = top.slice(0, m);
    const info = await readParts(ctx, pool);
    const sess = (e: FusedEntry) => (e.part ? day(info.get(e.part.id)?.timestamp ?? 0) : e.chunkId);
    const seen = new Set<string>();
    const out: FusedEntry[] = [];
    const left = [...pool];
    while (left.length > 0) {
      let bi = 0;
      let bs = -Infinity;
      left.forEach((e, i) => {
        const sc = e.fused - (seen.has(sess(e)) ? margin : 0);
        if (sc > bs) {
          bs = sc;
          bi = i;
        }
      });
      const [e] = left.splice(bi, 1);
      out.push(e!);
      seen.add(sess(e!));
    }
    return { ...ctx.ranking, entries: [...out, ...entries.slice(m)] };
  }
  if (name === 'hyde') {
    // A question naming one speaker: a pseudo-line "Name: content words" embedded as a second dense query,
    // added as a signal at w (mode 0) or replacing the dense signal's list (mode 1, via re-fusion).
    const [w = 0.3, mode = 0] = p;
    const info = await readParts(ctx, top.slice(0, 60));
    const speakers = new Set<string>();
    for (const i of info.values()) for (const s of speakersOf(i.text)) speakers.add(s);
    const named = [...speakers].filter((s) => new RegExp(`\\b${s}\\b`).test(ctx.queryText));
    if (named.length !== 1 || ctx.embed === undefined) return ctx.ranking;
    const person = named[0]!;
    const GRAMMAR =
      /\b(what|which|who|whom|whose|when|where|why|how|does|do|did|has|have|had|is|are|was|were|would|will|can|could|should|might|the|a|an|of|to|in|on|for|some|many|much|kind|type|types|kinds)\b/gi;
    const content = ctx.queryText
      .replace(new RegExp(`\\b${person}('s)?\\b`, 'g'), ' ')
      .replace(GRAMMAR, ' ')
      .replace(/[?!.]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    const pseudo = mode === 2 ? `${person}: I ${content}` : `${person}: ${content}`;
    const v = await ctx.embed(pseudo);
    if (v === undefined) return ctx.ranking;
    const found = await ctx.store.queryPoints(partsCollectionName(ctx.collection), {
      query: Array.from(v),
      using: DENSE_VECTOR,
      limit: 400,
      withPayload: ['chunkId', 'messageIds'],
      ...(ctx.filter ? { filter: ctx.filter } : {}),
    });
    if (found.length === 0) return ctx.ranking;
    const hi = found[0]!.score;
    const lo = found[found.length - 1]!.score;
    const byKey = new Map(entries.map((e) => [key(e), e]));
    for (const f of found) {
      const k = `part:${String(f.id)}`;
      const norm = hi > lo ? (f.score - lo) / (hi - lo) : 1;
      const e = byKey.get(k);
      if (e) byKey.set(k, withFused(e, e.fused + w * norm));
      else
        byKey.set(k, {
          chunkId: String(f.payload.chunkId),
          part: { id: String(f.id), messageIds: String(f.payload.messageIds ?? '') },
          fused: w * norm,
          relative: 0,
          signals: {},
        });
    }
    if (process.env.MP_HOP_DEBUG) console.error(pseudo);
    return { ...ctx.ranking, entries: resort([...byKey.values()]) };
  }
  return ctx.ranking;
}

void SPARSE_VECTOR;
