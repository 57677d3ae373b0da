/** @module `memory-pool doctor [--config F]`: every check a pass/fail line with its fix; exit 0 only when all pass. */
import type { Command } from 'commander';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import {
  type DoctorCheck,
  checkApiKeys,
  checkBacklog,
  checkCollections,
  checkEmbedder,
  checkJournal,
  checkStore,
} from '../../maintenance/doctor-checks.js';
import {
  type CommandOutput,
  type DataToolContext,
  loadCommandConfig,
  openDataTools,
  processOutput,
} from '../data-tool-context.js';
import { runCommand } from './command-failure.js';

export interface DoctorCommandOptions {
  config?: string;
  json?: boolean;
}

/** Runs every check it can (a config that does not load stops the rest); resolves with the exit code. */
export function runDoctor(options: DoctorCommandOptions, io: CommandOutput = processOutput): Promise<number> {
  return runCommand(io, async () => {
    const checks: DoctorCheck[] = [];
    let config: MemoryPoolConfig | undefined;
    try {
      config = loadCommandConfig(options.config);
      checks.push({ name: 'config valid', ok: true, detail: `${Object.keys(config.bots).length} bots` });
    } catch (error) {
      checks.push({
        name: 'config valid',
        ok: false,
        detail: (error as Error).message,
        fix: 'Fix the keys named above.',
      });
    }
    if (config !== undefined) checks.push(...(await runConfiguredChecks(config)));
    io.out(
      options.json === true
        ? `${JSON.stringify({ ok: checks.every((c) => c.ok), checks })}\n`
        : formatChecks(checks),
    );
    return checks.every((c) => c.ok) ? 0 : 1;
  });
}

async function runConfiguredChecks(config: MemoryPoolConfig): Promise<DoctorCheck[]> {
  const { createEmbedder } = await import('../../embedding/create-embedder.js');
  const embedder = createEmbedder(config.embedding);
  const checks: DoctorCheck[] = [];
  let tools: DataToolContext | undefined;
  try {
    tools = await openDataTools(config);
  } catch (error) {
    checks.push({
      name: 'store reachable',
      ok: false,
      detail: (error as Error).message.replace(/^error: /, ''),
      fix: 'Start the store, then run doctor again.',
    });
  }
  try {
    if (tools !== undefined)
      checks.push(await checkStore(tools.admin, tools.storeUrl, tools.storeOpenedHere));
    const embedded = await checkEmbedder(embedder);
    checks.push(embedded.check);
    if (tools !== undefined) {
      checks.push(
        ...(await checkCollections(tools, config, {
          model: embedder.model,
          dimensions: embedded.dimensions ?? embedder.dimensions,
        })),
      );
      checks.push(checkJournal(tools.journal, config.dataDir), checkBacklog(tools.journal, Date.now()));
    }
    checks.push(...checkApiKeys(config));
  } finally {
    await tools?.close();
  }
  return checks;
}

function formatChecks(checks: readonly DoctorCheck[]): string {
  const lines = checks.map((c) =>
    c.ok ? `pass  ${c.name}: ${c.detail}` : `FAIL  ${c.name}: ${c.detail}\n      fix: ${c.fix}`,
  );
  const failed = checks.filter((c) => !c.ok).length;
  lines.push(
    '',
    failed === 0 ? `All ${checks.length} checks pass.` : `${failed} of ${checks.length} checks fail.`,
  );
  return `${lines.join('\n')}\n`;
}

/** Registers `memory-pool doctor [--config FILE] [--json]`. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'Check the config, store, collections, embedder, journal and keys; exit 0 only when all pass',
    )
    .option(
      '-c, --config <file>',
      'YAML config file (default: ./memory-pool.yaml if present, else built-in defaults)',
    )
    .option('--json', 'print the checks as JSON')
    .action(async (options: DoctorCommandOptions) => {
      process.exitCode = await runDoctor(options);
    });
}
