/** @module Point reads: retrieve, get by id, search (+batch), query (+batch), scroll, count (qdrant-subset.md §3). */
import type { Hono } from 'hono';
import { parsePathPointId } from '../engine/point-id.js';
import { notFound } from '../qdrant-error.js';
import { readCollectionName } from './assert-collection-name.js';
import { respondResult } from './envelope.js';
import { MappedList } from './json-slices.js';
import { missingField, readObject, readPointIds } from './body-shape.js';
import { formatRecord, formatScoredPoint } from './point-json.js';
import { parseQueryBatch, parseQueryGroupsRequest, parseQueryRequest } from './parse-query.js';
import { parseReadOptions } from './parse-read-options.js';
import { parseCountRequest, parseScrollRequest } from './parse-scroll.js';
import { parseSearchBatch, parseSearchRequest } from './parse-search.js';
import type { QdrantEnv } from './qdrant-env.js';
import { parseReadParams } from './query-params.js';
import { readJsonBody } from './request-body.js';

export function registerPointReadRoutes(app: Hono<QdrantEnv>): void {
  // Missing ids are skipped; the engine keeps request order and drops duplicates.
  app.post('/collections/:name/points', async (c) => {
    const name = readCollectionName(c);
    const body = readObject(await readJsonBody(c), 'struct PointRequest');
    if (body.ids === undefined) throw missingField('ids');
    const ids = readPointIds(body.ids);
    const options = parseReadOptions(body, { payload: false, vector: false });
    parseReadParams(c);
    const records = c.get('engine').collection(name).retrieve(ids, options);
    return respondResult(c, records.map(formatRecord));
  });

  app.get('/collections/:name/points/:id', (c) => {
    const name = readCollectionName(c);
    const id = parsePathPointId(c.req.param('id'));
    parseReadParams(c);
    const [record] = c
      .get('engine')
      .collection(name)
      .retrieve([id], { withPayload: { kind: 'all' }, withVector: true });
    if (record === undefined) throw notFound(`Point with id ${id} does not exists!`);
    return respondResult(c, formatRecord(record));
  });

  app.post('/collections/:name/points/search', async (c) => {
    const name = readCollectionName(c);
    const request = parseSearchRequest(await readJsonBody(c));
    parseReadParams(c);
    const points = await c.get('engine').collection(name).search(request);
    return respondResult(c, new MappedList(points, formatScoredPoint));
  });

  app.post('/collections/:name/points/search/batch', async (c) => {
    const name = readCollectionName(c);
    const requests = parseSearchBatch(await readJsonBody(c));
    parseReadParams(c);
    const collection = c.get('engine').collection(name);
    // One after the other: each search is sliced, and a batch is no reason to hold the event loop longer.
    const results: unknown[] = [];
    for (const request of requests)
      results.push(new MappedList(await collection.search(request), formatScoredPoint));
    return respondResult(c, results);
  });

  app.post('/collections/:name/points/query', async (c) => {
    const name = readCollectionName(c);
    const request = parseQueryRequest(await readJsonBody(c));
    parseReadParams(c);
    const points = await c.get('engine').collection(name).query(request);
    return respondResult(c, { points: new MappedList(points, formatScoredPoint) });
  });

  app.post('/collections/:name/points/query/batch', async (c) => {
    const name = readCollectionName(c);
    const requests = parseQueryBatch(await readJsonBody(c));
    parseReadParams(c);
    const collection = c.get('engine').collection(name);
    const results: unknown[] = [];
    for (const request of requests) {
      results.push({ points: new MappedList(await collection.query(request), formatScoredPoint) });
    }
    return respondResult(c, results);
  });

  app.post('/collections/:name/points/query/groups', async (c) => {
    const name = readCollectionName(c);
    const request = parseQueryGroupsRequest(await readJsonBody(c));
    parseReadParams(c);
    const groups = await c.get('engine').collection(name).queryGroups(request);
    return respondResult(c, {
      groups: groups.map((group) => ({ id: group.id, hits: new MappedList(group.hits, formatScoredPoint) })),
    });
  });

  app.post('/collections/:name/points/scroll', async (c) => {
    const name = readCollectionName(c);
    const request = parseScrollRequest(await readJsonBody(c));
    parseReadParams(c);
    const page = await c.get('engine').collection(name).scroll(request);
    return respondResult(c, {
      points: new MappedList(page.points, formatRecord),
      next_page_offset: page.nextPageOffset,
    });
  });

  app.post('/collections/:name/points/count', async (c) => {
    const name = readCollectionName(c);
    const filter = parseCountRequest(await readJsonBody(c));
    parseReadParams(c);
    return respondResult(c, { count: c.get('engine').collection(name).count(filter) });
  });
}
