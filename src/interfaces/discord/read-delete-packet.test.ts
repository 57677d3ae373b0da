import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readDeletePacket } from './read-delete-packet.js';

test('reads the three delete packets, a DM delete without a guild', () => {
  assert.deepEqual(
    readDeletePacket({ t: 'MESSAGE_DELETE', d: { id: '11', channel_id: '22', guild_id: '33' } }),
    {
      kind: 'messages',
      ids: ['11'],
      channelId: '22',
      guildId: '33',
    },
  );
  assert.deepEqual(readDeletePacket({ t: 'MESSAGE_DELETE', d: { id: '11', channel_id: '44' } }), {
    kind: 'messages',
    ids: ['11'],
    channelId: '44',
  });
  assert.deepEqual(
    readDeletePacket({
      t: 'MESSAGE_DELETE_BULK',
      d: { ids: ['1', 2, '3'], channel_id: '22', guild_id: '33' },
    }),
    { kind: 'messages', ids: ['1', '3'], channelId: '22', guildId: '33' },
  );
  assert.deepEqual(readDeletePacket({ t: 'THREAD_DELETE', d: { id: '55', parent_id: '22', type: 11 } }), {
    kind: 'thread',
    threadId: '55',
  });
});

test('anything else, or a delete without its ids, is not a delete', () => {
  assert.equal(readDeletePacket({ t: 'MESSAGE_CREATE', d: { id: '11', channel_id: '22' } }), undefined);
  assert.equal(readDeletePacket({ t: 'MESSAGE_DELETE', d: { channel_id: '22' } }), undefined);
  assert.equal(readDeletePacket({ t: 'MESSAGE_DELETE_BULK', d: { ids: [], channel_id: '22' } }), undefined);
  assert.equal(readDeletePacket({ t: 'MESSAGE_DELETE', d: null }), undefined);
  assert.equal(readDeletePacket({}), undefined);
});
