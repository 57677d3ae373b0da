import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type ImportTestBench,
  startImportTestBench,
} from '../../cli/commands/test-support/import-test-bench.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const SELF_ID = '800000000000000001';

describe('memory-pool import discord', () => {
  let bench: ImportTestBench;
  before(async () => {
    bench = await startImportTestBench({ speakerAliases: { '700000000000000001': 'Helen Whitmore' } });
  });
  after(() => bench.close());

  test('a channel and a DM: export ids and times, self by --self-id, mentions and attachments; twice adds nothing', async () => {
    // One message the bot already saw live: the import must not store it twice.
    const live = await bench.service.post('/save', {
      bot: 'mythos',
      source: 'discord',
      messages: [
        {
          speaker_kind: 'user',
          text: 'Evening all! Is the regatta still on?',
          message_id: '1250000000000000001',
          ts: Date.parse('2024-06-20T18:00:00Z'),
          discord_user_id: '700000000000000001',
          channel_id: '900000000000000010',
          guild_id: '900000000000000001',
        },
      ],
    });
    assert.equal(live.status, 200);
    const first = await bench.run('discord', [FIXTURES], { selfId: SELF_ID });
    assert.equal(first.code, 0, first.err);
    assert.equal(first.summary?.accepted, 5);
    assert.equal(first.summary?.duplicates, 1);
    assert.equal(first.summary?.source, 'discord');
    const chunks = await bench.chunks();
    assert.deepEqual(chunks.flatMap((c) => c.messageIds).sort(), [
      '1250000000000000001',
      '1250000000000000003',
      '1250000000000000004',
      '1250000000000000005',
      '1250000000000000006',
      '1250000000000000007',
    ]);
    const guild = chunks.filter((c) => c.guildId === '900000000000000001');
    assert.ok(guild.every((c) => c.channelId === '900000000000000010' && c.isDm === undefined));
    const text = guild.map((c) => c.text).join('\n');
    assert.match(text, /^\[2024-06-20\]\nHelen Whitmore: Evening all!/m);
    assert.match(text, /^Mythos: Always, Helen Whitmore\. How did your crew do\?$/m);
    assert.match(
      text,
      /^Helen Whitmore: We came second! @Sam steered the whole way\.\n\[attachment: regatta\.jpg\]$/m,
    );
    assert.match(text, /^\[2024-06-21\]\nsam_k: Morning!/m);
    assert.doesNotMatch(text, /Pinned a message/);
    const dm = chunks.filter((c) => c.channelId === '900000000000000099');
    assert.equal(dm.length, 1);
    assert.equal(dm[0]?.isDm, true);
    assert.equal(dm[0]?.guildId, undefined);
    assert.equal(dm[0]?.timestamp, Date.parse('2024-06-22T21:00:00Z'));
    assert.equal(dm[0]?.speakers, 'Helen Whitmore, Mythos');

    const second = await bench.run('discord', [FIXTURES], { selfId: SELF_ID });
    assert.equal(second.summary?.accepted, 0);
    assert.equal(second.summary?.duplicates, 6);
    assert.deepEqual(await bench.chunks(), chunks);
  });

  test('a forgotten message stays forgotten when the export is imported again', async () => {
    const forget = await bench.service.post('/forget', {
      bot: 'mythos',
      message_ids: ['1250000000000000006'],
    });
    assert.equal(forget.status, 200);
    const again = await bench.run('discord', [join(FIXTURES, 'direct-messages-helen.json')], {
      selfId: SELF_ID,
    });
    assert.equal(again.summary?.forgotten, 1);
    const text = (await bench.chunks()).map((c) => c.text).join('\n');
    assert.doesNotMatch(text, /surprise party/);
  });

  test('without --self-id, or with a file that is not an export, nothing is read and the fix is named', async () => {
    const noSelf = await bench.run('discord', [FIXTURES]);
    assert.equal(noSelf.code, 1);
    assert.match(noSelf.err, /--self-id: missing.*Pass --self-id/);
    const notExport = await bench.run('discord', [join(import.meta.dirname, '..', 'chatgpt', 'fixtures')], {
      selfId: SELF_ID,
    });
    assert.equal(notExport.code, 1);
    assert.match(notExport.err, /conversations\.json: not a DiscordChatExporter export.*-f Json/);
  });
});
