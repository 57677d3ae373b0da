import assert from 'node:assert/strict';
import { test } from 'node:test';
import { civilDateAt, countCachedZones } from './zone-calendar.js';

/** The `n`th letter-case spelling of `zone` (`america/LOS_angeles`): Intl accepts every one. */
function spell(zone: string, n: number): string {
  let bit = 0;
  return zone.replace(/[a-z]/gi, (letter) =>
    (n >> bit++) & 1 ? letter.toUpperCase() : letter.toLowerCase(),
  );
}

test('the formatter cache holds one formatter per zone however many spellings of it arrive', () => {
  const instant = Date.UTC(2026, 4, 14, 12);
  // Counted from here: other test files in the same process may have cached zones of their own already.
  const before = countCachedZones();
  for (let n = 0; n < 2500; n++) {
    assert.equal(civilDateAt(instant, spell('America/Los_Angeles', n)).day, 14);
  }
  civilDateAt(instant, 'US/Pacific');
  const cached = countCachedZones();
  // At most one more canonical zone, and a bounded list of the spellings seen (a spelling is a short string).
  assert.ok(cached.formatters - before.formatters <= 1, JSON.stringify({ before, cached }));
  assert.ok(cached.spellings <= 2000, JSON.stringify(cached));
});
