/**
 * @module Evidence recall at a context budget: for one question, the fraction of its evidence turns found in
 * the messages of the hits returned, taking the best hits in rank order while the turns they hold stay
 * within the budget (so multi-turn chunks compare with one-turn documents at equal context).
 */

/** What the metric reads of one /retrieve hit. */
export interface BudgetHit {
  /** Comma-joined message ids, as in the shared format. */
  readonly messageIds: string;
  readonly text: string;
}

export interface BudgetScore {
  /** 0..1; 1 for a question without valid evidence. */
  readonly recall: number;
  /** Hits taken within the budget. */
  readonly chunks: number;
  readonly turns: number;
  readonly chars: number;
}

/** Scores one question's ranked hits against its evidence at a budget of `budgetTurns` turns. */
export function scoreAtBudget(
  hits: readonly BudgetHit[],
  evidence: readonly string[],
  budgetTurns: number,
): BudgetScore {
  const found = new Set<string>();
  let chunks = 0;
  let turns = 0;
  let chars = 0;
  for (const hit of hits) {
    const ids = hit.messageIds
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    // The first hit that does not fit ends the context: a reader gets a ranked prefix, not a packed knapsack.
    if (turns + ids.length > budgetTurns) break;
    turns += ids.length;
    chunks += 1;
    chars += hit.text.length;
    for (const id of ids) found.add(id);
  }
  const recall = evidence.length === 0 ? 1 : evidence.filter((id) => found.has(id)).length / evidence.length;
  return { recall, chunks, turns, chars };
}

/** Where the evidence turns lie in a ranking's returned turns: the bands the recall benchmark counts. */
export const EVIDENCE_BANDS = ['1-10', '11-25', '26-50', 'past 50', 'not returned'] as const;
export type EvidenceBand = (typeof EVIDENCE_BANDS)[number];

/**
 * The band of each evidence turn: its place among the turns of the hits in rank order (the first turn of the
 * first hit is 1), so a turn within 10 is one a 10-turn budget can hold, whatever the hits' sizes.
 */
export function placeEvidence(hits: readonly BudgetHit[], evidence: readonly string[]): EvidenceBand[] {
  const place = new Map<string, number>();
  let turns = 0;
  for (const hit of hits) {
    for (const id of hit.messageIds.split(',').map((part) => part.trim())) {
      if (id === '') continue;
      turns += 1;
      if (!place.has(id)) place.set(id, turns);
    }
  }
  return evidence.map((id) => {
    const at = place.get(id);
    if (at === undefined) return 'not returned';
    return at <= 10 ? '1-10' : at <= 25 ? '11-25' : at <= 50 ? '26-50' : 'past 50';
  });
}
