/**
 * @module Reads LoCoMo conversations (the schema of ../shared/datasets/locomo-dev/README.md) into what the
 * recall benchmark sends and scores: sessions in order with real dates, turns, and normalized evidence.
 */
import { readFileSync } from 'node:fs';

/** One turn as the benchmark saves it. */
export interface LocomoTurn {
  /** `D<session>:<turn>`, the message id it is saved under. */
  readonly diaId: string;
  readonly speaker: string;
  /** The turn's text, with its shared image's caption when it has one (see readTurnText). */
  readonly text: string;
}

export interface LocomoSession {
  readonly index: number;
  /** Unix ms of the session's date, read as UTC. */
  readonly startMs: number;
  readonly turns: readonly LocomoTurn[];
}

export interface LocomoQuestion {
  readonly question: string;
  readonly category: number;
  /** Evidence dia_ids that name a turn of the conversation, normalized; empty when none is valid. */
  readonly evidence: readonly string[];
}

export interface LocomoConversation {
  readonly sampleId: string;
  readonly speakerA: string;
  readonly speakerB: string;
  readonly sessions: readonly LocomoSession[];
  readonly questions: readonly LocomoQuestion[];
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** Parses LoCoMo's "1:56 pm on 8 May, 2023" as a UTC time (the data names no time zone). */
export function parseSessionDate(value: string): number {
  const match = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(value);
  const month = match ? MONTHS.indexOf(match[5]!.toLowerCase()) : -1;
  if (!match || month < 0) throw new Error(`unreadable LoCoMo session date: "${value}"`);
  const hour12 = Number(match[1]) % 12;
  const hour = match[3]!.toLowerCase() === 'pm' ? hour12 + 12 : hour12;
  return Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]));
}

/**
 * Splits one evidence string into normalized dia_ids: some hold several ids joined by `;` or spaces, some
 * are zero-padded (`D30:05` is `D30:5`).
 */
export function normalizeEvidence(raw: string): string[] {
  return raw
    .split(/[;,\s]+/)
    .map((part) => /^D(\d+):(\d+)$/i.exec(part.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => `D${Number(match[1])}:${Number(match[2])}`);
}

/**
 * A turn's text as a chat client with image captioning would save it: the caption of a shared image is
 * appended, as the LoCoMo paper's own retrieval setup does ("shares <caption>"), since some answers are
 * only in the picture.
 */
function readTurnText(turn: Record<string, unknown>): string {
  const text = String(turn.text ?? '');
  const caption = typeof turn.blip_caption === 'string' ? turn.blip_caption.trim() : '';
  return caption === '' ? text : `${text} [shares ${caption}]`;
}

function readSessions(conversation: Record<string, unknown>): LocomoSession[] {
  const sessions: LocomoSession[] = [];
  for (const key of Object.keys(conversation)) {
    const match = /^session_(\d+)$/.exec(key);
    const turns = conversation[key];
    const date = conversation[`${key}_date_time`];
    // Some date keys have no session (and a session without a date cannot be placed in time).
    if (!match || !Array.isArray(turns) || typeof date !== 'string') continue;
    sessions.push({
      index: Number(match[1]),
      startMs: parseSessionDate(date),
      turns: turns.map((turn: Record<string, unknown>) => ({
        diaId: normalizeEvidence(String(turn.dia_id))[0] ?? String(turn.dia_id),
        speaker: String(turn.speaker),
        text: readTurnText(turn),
      })),
    });
  }
  return sessions.sort((a, b) => a.index - b.index);
}

/** Loads every conversation of a LoCoMo JSON file (a list of samples). */
export function loadLocomo(path: string): LocomoConversation[] {
  const samples = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>[];
  return samples.map((sample) => {
    const conversation = sample.conversation as Record<string, unknown>;
    const sessions = readSessions(conversation);
    const known = new Set(sessions.flatMap((session) => session.turns.map((turn) => turn.diaId)));
    const qa = (sample.qa ?? []) as Record<string, unknown>[];
    return {
      sampleId: String(sample.sample_id),
      speakerA: String(conversation.speaker_a),
      speakerB: String(conversation.speaker_b),
      sessions,
      questions: qa.map((item) => ({
        question: String(item.question),
        category: Number(item.category),
        // Evidence naming no turn of the conversation is dropped; a question left with none counts as found.
        evidence: [
          ...new Set(((item.evidence ?? []) as unknown[]).flatMap((raw) => normalizeEvidence(String(raw)))),
        ].filter((id) => known.has(id)),
      })),
    };
  });
}
