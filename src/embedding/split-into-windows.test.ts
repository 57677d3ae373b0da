/** @module Tests for cutting long texts into windows that fit an embedder's input window. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InputWindow } from './embedder.js';
import { splitIntoWindows } from './split-into-windows.js';

/** A window of `maxTokens` where a token is a run of non-space characters. */
function wordWindow(maxTokens: number): InputWindow {
  return { maxTokens, countTokens: (text) => text.split(/\s+/).filter((word) => word !== '').length };
}

/** A window where every character is a token, as a byte-level tokenizer on unspaced text. */
function charWindow(maxTokens: number): InputWindow {
  return { maxTokens, countTokens: (text) => Array.from(text).length };
}

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');

/** n lines of `Speaker: w1 w2 ...`, each `perLine` words long (speaker included), numbered so none repeat. */
function chatLines(n: number, perLine: number): string {
  return Array.from(
    { length: n },
    (_, i) => `S${i}: ${Array.from({ length: perLine - 1 }, (_, j) => `w${i}_${j}`).join(' ')}`,
  ).join('\n');
}

describe('splitIntoWindows', () => {
  test('a text that fits is one window, unchanged', () => {
    const text = 'Anna: I moved to Lisbon.\nMythos: How is it?';
    assert.deepEqual(splitIntoWindows(text, wordWindow(20)), [text]);
  });

  test('every window fits, and together they hold every word once, in order', () => {
    const text = `[2023-05-08]\n${chatLines(12, 7)}`;
    const windows = splitIntoWindows(text, wordWindow(20));
    assert.ok(windows.length > 1);
    for (const window of windows) assert.ok(words(window).length <= 20, `too long: ${window}`);
    assert.deepEqual(words(windows.join(' ')), words(text));
  });

  test('cuts between lines (messages) when whole lines fit', () => {
    const text = chatLines(6, 5); // 30 words; windows of up to 12 words hold two whole lines each
    const windows = splitIntoWindows(text, wordWindow(12));
    const lines = text.split('\n');
    for (const window of windows) {
      for (const line of window.split('\n')) assert.ok(lines.includes(line), `a line was cut: "${line}"`);
    }
  });

  test('windows come out about equal, with no stray short tail', () => {
    const windows = splitIntoWindows(chatLines(7, 4), wordWindow(20)); // 28 words: 14 + 14, not 20 + 8
    assert.deepEqual(
      windows.map((window) => words(window).length),
      [16, 12],
    );
  });

  test('a line longer than the window is cut at sentence ends, then at spaces', () => {
    const sentence = (i: number) => `This is sentence number ${i} of a long message.`;
    const text = `Anna: ${Array.from({ length: 6 }, (_, i) => sentence(i)).join(' ')}`;
    const windows = splitIntoWindows(text, wordWindow(20));
    for (const window of windows) assert.ok(words(window).length <= 20);
    // Each window but the last ends where a sentence ends.
    for (const window of windows.slice(0, -1)) assert.match(window, /\.$/);
    assert.deepEqual(words(windows.join(' ')), words(text));

    const unpunctuated = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    const cut = splitIntoWindows(unpunctuated, wordWindow(20));
    assert.deepEqual(
      cut.map((window) => words(window).length),
      [17, 17, 16],
    );
  });

  test('a "word" longer than the window is cut inside, never inside a surrogate pair', () => {
    const text = `${'x'.repeat(45)}😀${'y'.repeat(30)}`;
    const windows = splitIntoWindows(text, charWindow(20));
    for (const window of windows) {
      assert.ok(Array.from(window).length <= 20);
      assert.ok(!/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(window), 'a surrogate pair was split');
    }
    assert.equal(windows.join(''), text);
  });

  test('an embedder that reads any length gets the text as it is', () => {
    const text = chatLines(100, 20);
    assert.deepEqual(splitIntoWindows(text, { maxTokens: Number.POSITIVE_INFINITY, countTokens: () => 1 }), [
      text,
    ]);
  });
});
