/**
 * @module Contract: the geo conditions of the filter language, `geo_radius` (Haversine meters), `geo_bounding_box`
 * (strict, across the antimeridian too) and `geo_polygon` (inside the exterior, outside its holes), with and
 * without a geo index (`lib/segment/src/types.rs::CheckGeoPoint`; tests/openapi/test_geo_filter.py).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk, sortIds } from './expect-envelope.js';
import { seedCollection } from './seed.js';
import { type ContractTarget, openTarget } from './target.js';

const v = [1, 0];
const BERLIN = { lon: 13.405, lat: 52.52 };
const ring = (points: [number, number][]) => ({ points: points.map(([lon, lat]) => ({ lon, lat })) });

describe('geo filters', () => {
  let target: ContractTarget;
  let name: string;
  const ids = async (condition: object) => {
    const page = expectOk(
      await target.http('POST', `/collections/${name}/points/scroll`, {
        filter: { must: [{ key: 'loc', ...condition }] },
        with_payload: false,
      }),
    );
    return sortIds(page.points.map((p: { id: number }) => p.id));
  };
  before(async () => {
    target = await openTarget();
    name = await seedCollection(
      target,
      'geo',
      [
        { id: 1, vector: v, payload: { loc: BERLIN } },
        // Potsdam, 27.2 km from Berlin.
        { id: 2, vector: v, payload: { loc: { lon: 13.0645, lat: 52.3906 } } },
        {
          id: 3,
          vector: v,
          payload: {
            loc: [
              { lon: -0.1276, lat: 51.5072 },
              { lon: 2.3522, lat: 48.8566 },
            ],
          },
        },
        { id: 4, vector: v, payload: { loc: { lon: 179.5, lat: -17 } } },
        { id: 5, vector: v, payload: { loc: { lon: -179.5, lat: -17 } } },
        { id: 6, vector: v, payload: { loc: 'Berlin' } },
      ],
      2,
    );
  });
  after(() => target.close());

  const checkAll = async () => {
    assert.deepEqual(await ids({ geo_radius: { center: BERLIN, radius: 30_000 } }), [1, 2]);
    assert.deepEqual(await ids({ geo_radius: { center: BERLIN, radius: 27_000 } }), [1]);
    const box = { top_left: { lon: 12, lat: 53 }, bottom_right: { lon: 14, lat: 52 } };
    assert.deepEqual(await ids({ geo_bounding_box: box }), [1, 2]);
    const across = { top_left: { lon: 179, lat: -16 }, bottom_right: { lon: -179, lat: -18 } };
    assert.deepEqual(await ids({ geo_bounding_box: across }), [4, 5]);
    // Any element of an array counts: Paris is in this box, London is not.
    const paris = { top_left: { lon: 2, lat: 49 }, bottom_right: { lon: 3, lat: 48 } };
    assert.deepEqual(await ids({ geo_bounding_box: paris }), [3]);
    const polygon = {
      exterior: ring([
        [12, 52],
        [14, 52],
        [14, 53],
        [12, 53],
        [12, 52],
      ]),
      interiors: [
        ring([
          [12.9, 52.3],
          [13.2, 52.3],
          [13.2, 52.5],
          [12.9, 52.5],
          [12.9, 52.3],
        ]),
      ],
    };
    assert.deepEqual(await ids({ geo_polygon: polygon }), [1]);
  };

  test('radius, bounding box and polygon select the points inside', checkAll);

  test('a geo index changes no result', async () => {
    expectOk(
      await target.http('PUT', `/collections/${name}/index?wait=true`, {
        field_name: 'loc',
        field_schema: 'geo',
      }),
    );
    await checkAll();
  });

  test('an open polygon is a 400 naming the rule', async () => {
    expectError(
      await target.http('POST', `/collections/${name}/points/scroll`, {
        filter: {
          must: [
            {
              key: 'loc',
              geo_polygon: {
                exterior: ring([
                  [0, 0],
                  [1, 0],
                  [1, 1],
                  [0, 1],
                ]),
              },
            },
          ],
        },
      }),
      400,
      /polygon invalid, the first and the last points should be the same/,
    );
  });
});
