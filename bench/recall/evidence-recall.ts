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
