/** @module `POST /points/scroll` and `POST /points/count` bodies (qdrant-subset.md §3). */
import type { OrderBy, ScrollRequest } from '../engine/engine-api.js';
import { parseJsonPointId } from '../engine/point-id.js';
import { type Filter, assertJsonPath } from '../filter/index.js';
import { badRequest, formatError } from '../qdrant-error.js';
import { invalidType, isJsonObject, missingField, readObject, readOptionalBool } from './body-shape.js';
import { readLimit } from './parse-limit.js';
import { parseReadOptions, readFilter } from './parse-read-options.js';

/** `order_by`: a key, or `{key, direction?, start_from?}`; shared with the query API's `{order_by}` query. */
export function parseOrderBy(value: unknown): OrderBy | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    assertJsonPath(value);
    return { key: value, direction: 'asc' };
  }
  if (!isJsonObject(value))
    throw formatError('data did not match any variant of untagged enum OrderByInterface');
  if (value.key === undefined) throw missingField('key');
  if (typeof value.key !== 'string') throw invalidType(value.key, 'a string');
  assertJsonPath(value.key);
  const direction = value.direction ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') {
    throw formatError(`unknown variant \`${String(direction)}\`, expected \`asc\` or \`desc\``);
  }
  const startFrom = value.start_from;
  if (
    startFrom !== undefined &&
    startFrom !== null &&
    typeof startFrom !== 'number' &&
    typeof startFrom !== 'string'
  ) {
    throw formatError('data did not match any variant of untagged enum StartFrom');
  }
  return {
    key: value.key,
    direction,
    ...(startFrom === undefined || startFrom === null ? {} : { startFrom }),
  };
}

/** Parses a scroll; `limit` defaults to 10 and `with_payload` to true. */
export function parseScrollRequest(json: unknown): ScrollRequest {
  const body = readObject(json, 'struct ScrollRequest');
  const offset =
    body.offset === undefined || body.offset === null ? undefined : parseJsonPointId(body.offset);
  const orderBy = parseOrderBy(body.order_by);
  const filter = readFilter(body);
  const options = parseReadOptions(body, { payload: true, vector: false });
  const limit = readLimit(body, 'limit', 10, 'scroll_request');
  if (orderBy !== undefined && offset !== undefined) {
    throw badRequest(
      'Cannot use an `offset` when using `order_by`. The alternative for paging is to use `order_by.start_from` ' +
        "and a filter to exclude the IDs that you've already seen for the `order_by.start_from` value",
    );
  }
  return {
    limit,
    ...options,
    ...(offset === undefined ? {} : { offset }),
    ...(orderBy === undefined ? {} : { orderBy }),
    ...(filter === undefined ? {} : { filter }),
  };
}

/** Parses a count: an optional filter; `exact` is accepted and the count is always exact. */
export function parseCountRequest(json: unknown): Filter | undefined {
  const body = readObject(json, 'struct CountRequest');
  readOptionalBool(body, 'exact');
  return readFilter(body);
}
