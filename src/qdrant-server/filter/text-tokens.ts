/**
 * @module Full-text index tokenizers and the token-based `match.text` / `text_any` / `phrase` checks
 * (qdrant-subset.md §4.4; full_text_index/tokenizers/mod.rs, tokens_processor.rs).
 */
import type { TextIndexParams } from './filter-api.js';

/** A text-family match on a key that carries a full-text index. */
export type TextMatchKind = 'text' | 'text_any' | 'phrase';

// Word tokenizers split on every char that is not Unicode alphanumeric (Rust's char::is_alphanumeric).
const WORD = /[\p{Alphabetic}\p{N}]+/gu;
const WHITESPACE_RUN = /\S+/gu;

function charCount(token: string): number {
  let n = 0;
  for (const _ of token) n++;
  return n;
}

function splitWords(text: string, params: TextIndexParams): string[] {
  // `multilingual` segments by language in Qdrant; without those dictionaries we fall back to word
  // splitting, which gives the same tokens for space-separated scripts.
  return text.match(params.tokenizer === 'whitespace' ? WHITESPACE_RUN : WORD) ?? [];
}

function processToken(raw: string, params: TextIndexParams, checkMaxLen: boolean): string | undefined {
  const token = params.lowercase ? raw.toLowerCase() : raw;
  // After lowercasing, before the length checks, as Qdrant's TokensProcessor orders them.
  if (params.stopwords?.has(token) === true) return undefined;
  const min = params.min_token_len;
  const max = params.max_token_len;
  if (min !== undefined || (checkMaxLen && max !== undefined)) {
    const len = charCount(token);
    if ((min !== undefined && len < min) || (checkMaxLen && max !== undefined && len > max)) return undefined;
  }
  return token;
}

/**
 * Document tokens in order. For the `prefix` tokenizer these are the whole words (checked with
 * max_token_len off, as Qdrant does); its indexed prefixes are implied by the starts-with test below.
 */
function documentTokens(text: string, params: TextIndexParams): string[] {
  const out: string[] = [];
  const checkMax = params.tokenizer !== 'prefix';
  for (const word of splitWords(text, params)) {
    const token = processToken(word, params, checkMax);
    if (token !== undefined) out.push(token);
  }
  return out;
}

/** Query tokens: for `prefix`, words are truncated to max_token_len (PrefixTokenizer::tokenize_query). */
function queryTokens(text: string, params: TextIndexParams): string[] {
  if (params.tokenizer !== 'prefix') return documentTokens(text, params);
  const out: string[] = [];
  for (const word of splitWords(text, params)) {
    const token = processToken(word, params, false);
    if (token === undefined) continue;
    const max = params.max_token_len;
    out.push(max !== undefined && charCount(token) > max ? [...token].slice(0, max).join('') : token);
  }
  return out;
}

function hasToken(doc: readonly string[], token: string, prefix: boolean): boolean {
  for (const d of doc) if (prefix ? d.startsWith(token) : d === token) return true;
  return false;
}

function hasPhrase(doc: readonly string[], phrase: readonly string[]): boolean {
  for (let start = 0; start + phrase.length <= doc.length; start++) {
    let ok = true;
    for (let k = 0; k < phrase.length && ok; k++) ok = doc[start + k] === phrase[k];
    if (ok) return true;
  }
  return false;
}

/**
 * Builds the per-string check for a text-family match judged by an index. A query with no tokens
 * matches nothing (TokenSet::has_subset on an empty set, has_any on nothing).
 */
export function compileTokenMatch(
  kind: TextMatchKind,
  query: string,
  params: TextIndexParams,
): (value: string) => boolean {
  const prefix = params.tokenizer === 'prefix';
  const tokens = kind === 'phrase' ? documentTokens(query, params) : [...new Set(queryTokens(query, params))];
  if (tokens.length === 0) return () => false;
  if (kind === 'phrase') return (value) => hasPhrase(documentTokens(value, params), tokens);
  if (kind === 'text_any') {
    return (value) => {
      const doc = documentTokens(value, params);
      return tokens.some((t) => hasToken(doc, t, prefix));
    };
  }
  const lowercase = params.lowercase;
  return (value) => {
    // Cheap reject first: every token is a substring of the (lowercased) value when it can match.
    const haystack = lowercase ? value.toLowerCase() : value;
    for (const t of tokens) if (!haystack.includes(t)) return false;
    const doc = documentTokens(value, params);
    return tokens.every((t) => hasToken(doc, t, prefix));
  };
}
