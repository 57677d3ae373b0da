import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSendDate } from './parse-send-date.js';

test('send_date is read as st-qdrant-memory reads it, then with SillyTavern legacy formats', () => {
  assert.equal(parseSendDate(1715508180000), 1715508180000);
  assert.equal(parseSendDate(1715508180), 1715508180000, 'seconds become ms');
  assert.equal(parseSendDate('2024-05-12T10:03:00.000Z'), 1715508180000);
  assert.equal(parseSendDate('May 12, 2024 10:23 am'), new Date('May 12, 2024 10:23 am').getTime());
  assert.equal(parseSendDate('June 19, 2023 4:43pm'), new Date(2023, 5, 19, 16, 43).getTime());
  assert.equal(parseSendDate('2024-07-12@01h31m37s123ms'), Date.UTC(2024, 6, 12, 1, 31, 37, 123));
  assert.equal(parseSendDate('2024-7-12@01h31m37s'), Date.UTC(2024, 6, 12, 1, 31, 37));
  assert.equal(parseSendDate('2024-6-5 @14h 56m 50s 682ms'), Date.UTC(2024, 5, 5, 14, 56, 50, 682));
  assert.equal(parseSendDate('1715508180000'), 1715508180000);
  for (const bad of [undefined, '', 'someday', 0, 12345, null]) assert.equal(parseSendDate(bad), undefined);
});
