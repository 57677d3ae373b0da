/** @module `memory-pool stats [--bot B]`: points by source, messages, pending, oldest and newest memory. */
import type { Command } from 'commander';
import { liveCollection } from '../../core/bot-collections.js';
import { readBotStats } from '../../core/read-bot-stats.js';
import { loadCommandConfig, openDataTools, requireConfiguredBot } from '../command-context.js';
import { type CommandOutput, configOption, processOutput, runCommand } from './command-io.js';
import { formatStatsTable, toCliStats } from './format-stats.js';

export interface StatsCommandOptions {
  bot?: string;
  config?: string;
  json?: boolean;
}

/** Runs the command; resolves with the exit code. It only reads. */
export function runStats(options: StatsCommandOptions, io: CommandOutput = processOutput): Promise<number> {
  return runCommand(io, async () => {
    const config = loadCommandConfig(options.config);
    if (options.bot !== undefined) requireConfiguredBot(config, options.bot);
    const bots = options.bot === undefined ? Object.values(config.bots) : [config.bots[options.bot]!];
    const tools = await openDataTools(config);
    try {
      const stats = [];
      for (const bot of bots) {
        stats.push(toCliStats(await readBotStats(tools, bot, await liveCollection(tools.journal, bot))));
      }
      io.out(options.json === true ? `${JSON.stringify({ bots: stats })}\n` : formatStatsTable(stats));
    } finally {
      await tools.close();
    }
    return 0;
  });
}

/** Registers `memory-pool stats [--bot B] [--config FILE] [--json]`. */
export function registerStatsCommand(program: Command): void {
  program
    .command('stats')
    .description(
      "What each bot's memory holds: points by source, messages, pending, oldest and newest memory",
    )
    .option('--bot <name>', 'only this bot (default: every configured bot)')
    .addOption(configOption())
    .option('--json', 'print machine-readable figures')
    .action(async (options: StatsCommandOptions) => {
      process.exitCode = await runStats(options);
    });
}
