/**
 * @module `memory-pool people list|link|rename|unlink --bot B`: the owner's people tools on the journal the
 * config names (a running service sees a change within about a second). Accounts are written `discord:1234`,
 * `telegram:5678` (any platform-qualified user id) or `persona:Anna`.
 */
import type { Command } from 'commander';
import type { MemoryPoolConfig } from '../../config/config-types.js';
import { isMemoryPoolError } from '../../errors/memory-pool-error.js';
import type { Journal } from '../../journal/journal.js';
import type { AccountKey } from '../../journal/journal-people.js';
import { openJournal } from '../../journal/open-journal.js';
import { describeAccount } from '../../people/account-key.js';
import { createPerson, requirePerson, updatePerson } from '../../people/people-directory.js';
import { personNameSchema } from '../../wire/people.js';
import { loadBotConfig } from '../command-context.js';
import { CommandFailure, type CommandOutput, configOption, processOutput, runCommand } from './command-io.js';

export interface PeopleCommandOptions {
  bot: string;
  config?: string;
  json?: boolean;
  name?: string;
  person?: string;
}

/** `persona:Anna` is a persona; anything else with a `:` a platform-qualified user id. */
export function parseAccountArgument(text: string): AccountKey {
  const trimmed = text.trim();
  if (trimmed.startsWith('persona:') && trimmed.length > 8)
    return { kind: 'persona', value: trimmed.slice(8) };
  if (/^[^:\s]+:\S+$/.test(trimmed) && trimmed.length <= 200) return { kind: 'user', value: trimmed };
  throw new CommandFailure(
    `error: "${text}" is not an account; write discord:<id>, <platform>:<id> (e.g. telegram:5678) or persona:<name>`,
  );
}

function parseName(text: string | undefined): string {
  const parsed = personNameSchema.safeParse(text ?? '');
  if (!parsed.success) throw new CommandFailure(`error: --name ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

/** Runs one subcommand against the journal; resolves with the exit code. */
export function runPeople(
  action: 'list' | 'link' | 'rename' | 'unlink',
  args: readonly string[],
  options: PeopleCommandOptions,
  io: CommandOutput = processOutput,
): Promise<number> {
  return runCommand(io, async () => {
    const config = loadBotConfig(options);
    const journal = await openJournal(config);
    try {
      await act(journal, config, action, args, options, io);
    } catch (error) {
      // The same 400/409 the API answers, as one line.
      if (isMemoryPoolError(error) && error.status < 500) throw new CommandFailure(`error: ${error.message}`);
      throw error;
    } finally {
      await journal.close();
    }
    return 0;
  });
}

async function act(
  journal: Journal,
  config: MemoryPoolConfig,
  action: 'list' | 'link' | 'rename' | 'unlink',
  args: readonly string[],
  options: PeopleCommandOptions,
  io: CommandOutput,
): Promise<void> {
  const bot = config.bots[options.bot]!.name;
  const now = Date.now();
  const print = (person: { id: string; name: string; accounts: readonly AccountKey[] }) =>
    io.out(
      options.json === true
        ? `${JSON.stringify({ id: person.id, name: person.name, accounts: person.accounts.map(describeAccount) })}\n`
        : `${person.id}  ${person.name}  ${person.accounts.map(describeAccount).join(', ') || '(no accounts)'}\n`,
    );
  if (action === 'list') {
    const people = await journal.people.list(bot);
    if (options.json === true) {
      io.out(
        `${JSON.stringify({ bot, people: people.map((p) => ({ id: p.id, name: p.name, accounts: p.accounts.map(describeAccount) })) })}\n`,
      );
    } else if (people.length === 0) io.out(`${bot} has no people linked yet\n`);
    else for (const person of people) print(person);
    return;
  }
  if (action === 'link') {
    const accounts = args.map(parseAccountArgument);
    if (accounts.length === 0) throw new CommandFailure('error: name at least one account to link');
    print(
      options.person === undefined
        ? await createPerson(journal, bot, { name: parseName(options.name), accounts }, now)
        : await updatePerson(journal, bot, options.person, { add: accounts }, now),
    );
    return;
  }
  const [id, ...rest] = args;
  if (id === undefined)
    throw new CommandFailure(`error: ${action} needs the person's id (memory-pool people list)`);
  if (action === 'rename') {
    print(await updatePerson(journal, bot, id, { name: parseName(rest.join(' ')) }, now));
    return;
  }
  if (rest.length > 0) {
    print(await updatePerson(journal, bot, id, { remove: rest.map(parseAccountArgument) }, now));
    return;
  }
  const person = await requirePerson(journal, bot, id);
  await journal.people.remove(bot, id, now);
  io.out(
    `${person.name} (${id}) unlinked from ${person.accounts.length} account(s); no message was forgotten\n`,
  );
}

/** Registers `memory-pool people list|link|rename|unlink`. */
export function registerPeopleCommand(program: Command): void {
  const people = program
    .command('people')
    .description('Link the accounts of one person across interfaces (docs/people.md)');
  const common = (command: Command) =>
    command
      .requiredOption('--bot <name>', 'the bot whose people these are')
      .addOption(configOption())
      .option('--json', 'print JSON');
  common(people.command('list').description('the people of a bot and their accounts')).action(
    async (options: PeopleCommandOptions) => {
      process.exitCode = await runPeople('list', [], options);
    },
  );
  common(
    people
      .command('link')
      .argument('<accounts...>', 'discord:<id>, <platform>:<id> or persona:<name>')
      .description('link accounts: to a new person (--name), or to one that exists (--person)'),
  )
    .option('--name <name>', "the new person's name")
    .option('--person <id>', 'add the accounts to this person')
    .action(async (accounts: string[], options: PeopleCommandOptions) => {
      process.exitCode = await runPeople('link', accounts, options);
    });
  common(
    people.command('rename').argument('<id>').argument('<name...>').description("change a person's name"),
  ).action(async (id: string, name: string[], options: PeopleCommandOptions) => {
    process.exitCode = await runPeople('rename', [id, ...name], options);
  });
  common(
    people
      .command('unlink')
      .argument('<id>')
      .argument('[accounts...]', 'only these accounts (default: all, and the person goes)')
      .description('unlink accounts from a person; nothing is forgotten'),
  ).action(async (id: string, accounts: string[], options: PeopleCommandOptions) => {
    process.exitCode = await runPeople('unlink', [id, ...accounts], options);
  });
}
