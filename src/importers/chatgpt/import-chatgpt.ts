/**
 * @module `memory-pool import chatgpt`: the ChatGPT data export's `conversations.json`. Each conversation is a
 * tree of messages (every edit and regeneration is a branch); the branch shown last (`current_node` back to
 * the root) is the conversation, and only its user and assistant turns are imported.
 */
import { type ImportedHistory, type ImportedMessage, refuseInput, SkipCounter } from '../imported-history.js';
import { listImportFiles } from '../list-import-files.js';
import { asRecord, readJsonFile } from '../read-json-file.js';

export interface ChatGptImportOptions {
  /** The user's speaker name (the export has none); default `User`. */
  readonly userName: string | undefined;
  readonly source: string;
}

const EXPORT_FIX =
  'Use conversations.json from the ChatGPT data export (Settings, Data controls, Export data), unchanged';
/** Content types that are what was said; code, tool output, browsing quotes and reasoning are not. */
const TEXT_TYPES = new Set(['text', 'multimodal_text']);

/** Reads every `.json` file under `paths` (a folder: the unpacked export; only conversations files count). */
export function importChatGpt(paths: readonly string[], options: ChatGptImportOptions): ImportedHistory {
  const skipped = new SkipCounter();
  const messages: ImportedMessage[] = [];
  for (const file of listImportFiles(paths, '.json')) {
    const doc = readJsonFile(file, EXPORT_FIX);
    const conversations = Array.isArray(doc) ? doc : [doc];
    conversations.forEach((raw, c) => {
      const conversation = asRecord(raw);
      const origin = `${file} [${c}]`;
      const id = conversation?.conversation_id ?? conversation?.id;
      const mapping = asRecord(conversation?.mapping);
      if (typeof id !== 'string' || mapping === undefined || typeof conversation?.current_node !== 'string') {
        throw refuseInput(origin, 'not a ChatGPT conversation (no id, mapping or current_node)', EXPORT_FIX);
      }
      for (const node of currentBranch(mapping, conversation.current_node, origin)) {
        const imported = toImported(node, id, conversation, options, skipped);
        if (imported !== undefined)
          messages.push({ origin: `${origin} message ${imported.message_id}`, message: imported });
      }
    });
  }
  return { source: options.source, messages, skipped: skipped.counts, notes: [] };
}

/** The nodes from the root to `current`, oldest first. */
function currentBranch(
  mapping: Record<string, unknown>,
  current: string,
  origin: string,
): Record<string, unknown>[] {
  const branch: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  let id: unknown = current;
  while (typeof id === 'string') {
    // Own keys only: "__proto__" or "constructor" would find Object.prototype's, not a node of the export.
    const node = Object.hasOwn(mapping, id) ? asRecord(mapping[id]) : undefined;
    if (node === undefined || seen.has(id)) {
      throw refuseInput(origin, `message tree is broken at node ${id}`, EXPORT_FIX);
    }
    seen.add(id);
    branch.push(node);
    id = node.parent;
  }
  return branch.reverse();
}

function toImported(
  node: Record<string, unknown>,
  conversationId: string,
  conversation: Record<string, unknown>,
  options: ChatGptImportOptions,
  skipped: SkipCounter,
): ImportedMessage['message'] | undefined {
  const message = asRecord(node.message);
  if (message === undefined) return undefined; // the tree's empty root
  const role = asRecord(message.author)?.role;
  const hidden = asRecord(message.metadata)?.is_visually_hidden_from_conversation === true;
  const toTool = message.recipient !== undefined && message.recipient !== 'all';
  if ((role !== 'user' && role !== 'assistant') || hidden || toTool) {
    skipped.add('system, tool and hidden turns');
    return undefined;
  }
  const content = asRecord(message.content);
  if (!TEXT_TYPES.has(String(content?.content_type)) || !Array.isArray(content?.parts)) {
    skipped.add('turns that are not text (code, tool output, reasoning)');
    return undefined;
  }
  const text = content.parts
    .map((part) => (typeof part === 'string' ? part : '[image]'))
    .join('\n')
    .trim();
  if (text === '' || typeof message.id !== 'string') {
    skipped.add('empty turns');
    return undefined;
  }
  const seconds = typeof message.create_time === 'number' ? message.create_time : conversation.create_time;
  if (typeof seconds !== 'number') {
    throw refuseInput(`conversation ${conversationId} message ${message.id}`, 'no create_time', EXPORT_FIX);
  }
  return {
    speaker_kind: role === 'user' ? 'user' : 'self',
    text,
    message_id: message.id,
    ts: Math.floor(seconds * 1000),
    channel_id: conversationId,
    ...(role === 'user' && options.userName !== undefined ? { speaker_name: options.userName } : {}),
  };
}
