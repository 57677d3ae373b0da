/**
 * @module The geo conditions of a field condition (`lib/segment/src/types.rs`: GeoRadius, GeoBoundingBox,
 * GeoPolygon, `CheckGeoPoint`): parsing with Qdrant's errors, and the per-value check. A payload value is a geo
 * point when it is `{lon, lat}` with numbers in range; anything else fails the condition.
 */
import { formatError } from '../qdrant-error.js';
import { invalidType, isJsonObject } from './json-value.js';

export interface GeoPoint {
  readonly lon: number;
  readonly lat: number;
}

export type GeoCondition =
  | { readonly kind: 'radius'; readonly center: GeoPoint; readonly radius: number }
  | { readonly kind: 'box'; readonly topLeft: GeoPoint; readonly bottomRight: GeoPoint }
  | { readonly kind: 'polygon'; readonly rings: readonly (readonly GeoPoint[])[] };

/** The geo crate's mean Earth radius in meters, which its Haversine distance uses. */
const EARTH_RADIUS_M = 6371008.8;

function inRange({ lon, lat }: GeoPoint): boolean {
  return lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90;
}

function parsePoint(json: unknown): GeoPoint {
  if (!isJsonObject(json)) throw formatError(invalidType(json, 'struct GeoPoint'));
  const { lon, lat } = json;
  if (typeof lon !== 'number' || typeof lat !== 'number') throw formatError('missing field `lon` or `lat`');
  if (!inRange({ lon, lat })) {
    throw formatError(
      `Wrong format of GeoPoint payload: expected \`lat\` = ${lat} within [-90;90] and \`lon\` = ${lon} within [-180;180]`,
    );
  }
  return { lon, lat };
}

function parseRing(json: unknown): GeoPoint[] {
  if (!isJsonObject(json) || !Array.isArray(json.points))
    throw formatError(invalidType(json, 'struct GeoLineString'));
  const points = json.points.map(parsePoint);
  if (points.length <= 3) {
    throw formatError(`polygon invalid, the size must be at least 4, got ${points.length}`);
  }
  const first = points[0] as GeoPoint;
  const last = points[points.length - 1] as GeoPoint;
  if (Math.abs(first.lat - last.lat) > Number.EPSILON || Math.abs(first.lon - last.lon) > Number.EPSILON) {
    throw formatError(
      'polygon invalid, the first and the last points should be the same to form a closed line',
    );
  }
  return points;
}

/** Parses `geo_radius`, `geo_bounding_box` or `geo_polygon`. */
export function parseGeoCondition(
  kind: 'geo_radius' | 'geo_bounding_box' | 'geo_polygon',
  json: unknown,
): GeoCondition {
  if (!isJsonObject(json)) throw formatError(invalidType(json, `struct ${kind}`));
  if (kind === 'geo_radius') {
    if (typeof json.radius !== 'number') throw formatError(invalidType(json.radius, 'f64'));
    return { kind: 'radius', center: parsePoint(json.center), radius: json.radius };
  }
  if (kind === 'geo_bounding_box') {
    return { kind: 'box', topLeft: parsePoint(json.top_left), bottomRight: parsePoint(json.bottom_right) };
  }
  const interiors = json.interiors;
  if (interiors !== undefined && interiors !== null && !Array.isArray(interiors)) {
    throw formatError(invalidType(interiors, 'a sequence'));
  }
  return { kind: 'polygon', rings: [parseRing(json.exterior), ...(interiors ?? []).map(parseRing)] };
}

/** Haversine distance in meters, as the geo crate computes it. */
export function haversineMeters(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

/** Whether the point lies on the segment a-b (the polygon's boundary is not inside it). */
function onSegment(p: GeoPoint, a: GeoPoint, b: GeoPoint): boolean {
  const cross = (b.lon - a.lon) * (p.lat - a.lat) - (b.lat - a.lat) * (p.lon - a.lon);
  if (cross !== 0) return false;
  return (
    p.lon >= Math.min(a.lon, b.lon) &&
    p.lon <= Math.max(a.lon, b.lon) &&
    p.lat >= Math.min(a.lat, b.lat) &&
    p.lat <= Math.max(a.lat, b.lat)
  );
}

/** -1 on the ring's boundary, 1 strictly inside, 0 outside (even-odd ray casting on planar lon/lat). */
function ringSide(p: GeoPoint, ring: readonly GeoPoint[]): -1 | 0 | 1 {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i] as GeoPoint;
    const b = ring[j] as GeoPoint;
    if (onSegment(p, a, b)) return -1;
    if (
      a.lat > p.lat !== b.lat > p.lat &&
      p.lon < ((b.lon - a.lon) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lon
    ) {
      inside = !inside;
    }
  }
  return inside ? 1 : 0;
}

/** `Polygon::contains`: strictly inside the exterior, and neither inside nor on any hole. */
function polygonContains(p: GeoPoint, rings: readonly (readonly GeoPoint[])[]): boolean {
  const [exterior, ...holes] = rings;
  if (exterior === undefined || ringSide(p, exterior) !== 1) return false;
  return holes.every((hole) => ringSide(p, hole) === 0);
}

function asGeoPoint(value: unknown): GeoPoint | undefined {
  if (!isJsonObject(value) || typeof value.lon !== 'number' || typeof value.lat !== 'number')
    return undefined;
  const point = { lon: value.lon, lat: value.lat };
  return inRange(point) ? point : undefined;
}

/** The check of one payload value; bounds are strict, as Qdrant's are. */
export function compileGeoCondition(condition: GeoCondition): (value: unknown) => boolean {
  return (value) => {
    const p = asGeoPoint(value);
    if (p === undefined) return false;
    switch (condition.kind) {
      case 'radius':
        return haversineMeters(condition.center, p) < condition.radius;
      case 'box': {
        const { topLeft, bottomRight } = condition;
        // A box whose left edge is east of its right edge crosses the antimeridian.
        const lonOk =
          topLeft.lon > bottomRight.lon
            ? p.lon > topLeft.lon || p.lon < bottomRight.lon
            : topLeft.lon < p.lon && p.lon < bottomRight.lon;
        return lonOk && bottomRight.lat < p.lat && p.lat < topLeft.lat;
      }
      case 'polygon':
        return polygonContains(p, condition.rings);
    }
  };
}
