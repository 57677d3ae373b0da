/**
 * @module The nesting bound of request JSON. Qdrant parses bodies with serde_json, whose Deserializer starts with
 * `remaining_depth: 128` and refuses the container that brings it to 0 (serde_json src/de.rs, `check_recursion!`):
 * 127 nested arrays/objects parse, the 128th is `recursion limit exceeded`. The store checks the same bound on
 * the raw text before parsing, iteratively, so a deep body can reach no recursive code (filters, payload edits,
 * serialization) and answers 400 instead of overflowing the stack.
 */
import { findTooDeep as findNestedPast } from '../../runtime/find-too-deep.js';

/** Containers a body may nest: serde_json's 128 minus the one whose entry fails. */
export const MAX_JSON_DEPTH = 127;

/** The offset of the first container past Qdrant's bound (`limit`, default 127), or -1. */
export function findTooDeep(text: string, limit: number = MAX_JSON_DEPTH): number {
  return findNestedPast(text, limit);
}
