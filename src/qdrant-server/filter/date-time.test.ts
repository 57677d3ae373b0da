import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseDateTime } from './index.js';

const micros = (iso: string) => Date.parse(iso) * 1000;

describe('parseDateTime', () => {
  const accepted: [string, number][] = [
    ['2014-01-01T00:00:00Z', micros('2014-01-01T00:00:00Z')],
    ['2014-01-01t00:00:00z', micros('2014-01-01T00:00:00Z')],
    ['2015-02-18T23:16:09.153Z', micros('2015-02-18T23:16:09.153Z')],
    ['2015-02-18T23:16:09.123456789Z', micros('2015-02-18T23:16:09Z') + 123456],
    ['2015-02-18T23:16:09+01:00', micros('2015-02-18T22:16:09Z')],
    ['2015-02-18T23:16:09-0130', micros('2015-02-19T00:46:09Z')],
    ['2015-02-18 23:16:09+0100', micros('2015-02-18T22:16:09Z')],
    ['2015-02-18 23:16:09 +01:00', micros('2015-02-18T22:16:09Z')],
    ['2015-02-18T23:16:09+01', micros('2015-02-18T22:16:09Z')],
    ['2015-02-18T23:16:09', micros('2015-02-18T23:16:09Z')], // no zone means UTC
    ['2015-02-18 23:16:09.5', micros('2015-02-18T23:16:09.500Z')],
    ['2015-02-18T23:16', micros('2015-02-18T23:16:00Z')],
    ['2015-02-18 23:16', micros('2015-02-18T23:16:00Z')],
    ['2015-02-18', micros('2015-02-18T00:00:00Z')],
    ['2016-02-29', micros('2016-02-29T00:00:00Z')],
    ['0050-06-01', micros('0050-06-01T00:00:00Z')],
    ['1969-12-31T23:59:59.999999Z', -1],
  ];
  for (const [text, expected] of accepted) {
    test(`accepts ${text}`, () => assert.equal(parseDateTime(text), expected));
  }
  const rejected = [
    'Sat, 01 Feb 2015 00:00:00 +0000', // RFC 2822
    '1422748800', // unix timestamp
    '20150201',
    '2015-02-30',
    '2015-13-01',
    '2015-02-18T24:00:00Z',
    '2015-02-18T23:16+01:00',
    '2015-02-18T',
    'yesterday',
    '2015-02-18T23:16:09Zjunk',
    '2015-02-18T23:16:09 ',
    '2015-02-18T23:16:09.',
    '2015-02-18T23:16:09+01:',
    '2015-2-18',
    '',
  ];
  for (const text of rejected) {
    test(`rejects ${JSON.stringify(text)}`, () => assert.equal(parseDateTime(text), undefined));
  }
});
