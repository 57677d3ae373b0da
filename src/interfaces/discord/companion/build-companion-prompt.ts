/**
 * @module The chat prompt of one companion reply: the persona (card or system prompt), the pool's recalled
 * block, then the recent channel messages as turns, the person's last message at the end.
 */
import type { CharacterCard } from './read-character-card.js';
import type { ChatMessage } from './stream-chat-completion.js';

export interface PromptParts {
  /** The companion's name: the card's, else the bot's selfSpeaker. */
  readonly name: string;
  readonly card?: CharacterCard;
  readonly systemPrompt?: string;
  /** `/retrieve`'s `[Past chat memories]` block, or "". */
  readonly recalled: string;
  /** Oldest first; `self` turns are the companion's own. */
  readonly recent: readonly { readonly self: boolean; readonly speaker: string; readonly text: string }[];
}

/** SillyTavern's macros for the character's and the user's name, as cards use them. */
function fillMacros(text: string, name: string): string {
  return text.replace(/\{\{char\}\}/gi, name).replace(/\{\{user\}\}/gi, 'the person you talk to');
}

export function buildCompanionPrompt(parts: PromptParts): ChatMessage[] {
  const { card, name } = parts;
  const persona = [
    parts.systemPrompt,
    card?.systemPrompt,
    card === undefined ? undefined : `You are ${name}.`,
    card?.description,
    card?.personality ? `Personality: ${card.personality}` : undefined,
    card?.scenario ? `Scenario: ${card.scenario}` : undefined,
    card?.exampleMessages ? `Examples of how ${name} speaks:\n${card.exampleMessages}` : undefined,
    `You are talking on Discord; several people may speak, each line starts with their name. Reply as ${name} only.`,
    parts.recalled === '' ? undefined : parts.recalled,
    card?.postHistoryInstructions,
  ]
    .filter((part): part is string => part !== undefined && part.trim() !== '')
    .map((part) => fillMacros(part, name));
  const turns = parts.recent.map(
    (turn): ChatMessage =>
      turn.self
        ? { role: 'assistant', content: turn.text }
        : { role: 'user', content: `${turn.speaker}: ${turn.text}` },
  );
  return [{ role: 'system', content: persona.join('\n\n') }, ...turns];
}
