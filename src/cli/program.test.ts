/** @module Pins the CLI's commands and their options, so a new or renamed flag shows up in review. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildProgram } from './program.js';

test('memory-pool has exactly these commands and options', () => {
  const commands = Object.fromEntries(
    buildProgram().commands.map((command) => [command.name(), command.options.map((option) => option.flags)]),
  );
  assert.deepEqual(commands, {
    serve: ['-c, --config <file>', '--log-format <format>', '--discord-commands <where>'],
    qdrant: [
      '--data <dir>',
      '--host <host>',
      '--port <port>',
      '--api-key <key>',
      '--read-only-api-key <key>',
      '--cors-origin <origin>',
      '--log-format <format>',
    ],
    mcp: ['-c, --config <file>', '--url <url>', '--api-key <key>', '--bot <name>', '--timeout-ms <ms>'],
    reindex: ['--bot <name>', '-c, --config <file>', '--dry-run', '--json'],
    import: [
      '--bot <name>',
      '-c, --config <file>',
      '--source <name>',
      '--user-name <name>',
      '--character <name>',
      '--self-id <id>',
      '--dry-run',
      '--json',
    ],
    export: ['--bot <name>', '--out <file>', '--gzip', '-c, --config <file>', '--dry-run', '--json'],
    restore: ['--bot <name>', '--into-collection <name>', '-c, --config <file>', '--dry-run', '--json'],
    reembed: [
      '--bot <name>',
      '--to <file>',
      '--rollback',
      '--drop-old',
      '-c, --config <file>',
      '--dry-run',
      '--json',
    ],
    // Read-only: nothing for a --dry-run to hold back.
    doctor: ['-c, --config <file>', '--json'],
    stats: ['--bot <name>', '-c, --config <file>', '--json'],
    journal: [],
    people: [],
  });
});

test('memory-pool people has exactly these subcommands and options', () => {
  const people = buildProgram().commands.find((command) => command.name() === 'people');
  const commands = Object.fromEntries(
    (people?.commands ?? []).map((command) => [
      command.name(),
      command.options.map((option) => option.flags),
    ]),
  );
  const common = ['--bot <name>', '-c, --config <file>', '--json'];
  assert.deepEqual(commands, {
    list: common,
    link: [...common, '--name <name>', '--person <id>'],
    rename: common,
    unlink: common,
  });
});

test('memory-pool journal has exactly these subcommands and options', () => {
  const journal = buildProgram().commands.find((command) => command.name() === 'journal');
  const commands = Object.fromEntries(
    (journal?.commands ?? []).map((command) => [
      command.name(),
      command.options.map((option) => option.flags),
    ]),
  );
  assert.deepEqual(commands, {
    copy: ['--to <postgres-url>', '-c, --config <file>', '--dry-run', '--json'],
  });
});
