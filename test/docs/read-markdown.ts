/** @module Reads the repository's user documentation (README.md and docs/**\/*.md): files, links, headings. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** README.md and every Markdown file under docs/, as paths relative to the repository root. */
export function listDocFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk('docs').sort()];
}

/** A file's text with fenced code blocks blanked out (line numbers kept), so a link in code is not read. */
export function readProse(file: string): string {
  let inFence = false;
  return readFileSync(join(REPO_ROOT, file), 'utf8')
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line.replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
    })
    .join('\n');
}

/** Each link target in a file's prose: `[text](target)` and `<target>` autolinks, with its line. */
export function findLinks(file: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  readProse(file)
    .split('\n')
    .forEach((text, index) => {
      for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<((?:https?:\/\/|\.{0,2}\/)[^>\s]+)>/g)) {
        links.push({ target: (match[1] ?? match[2]) as string, line: index + 1 });
      }
    });
  return links;
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
export function listAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of readFileSync(join(REPO_ROOT, file), 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** A path relative to the repository root, or undefined when it lies outside the repository. */
export function toRepoPath(absolute: string): string | undefined {
  const path = relative(REPO_ROOT, absolute);
  return path.startsWith('..') || path === '' ? undefined : path;
}
