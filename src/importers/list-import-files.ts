/** @module Expands the paths given to `memory-pool import` into the files to read, in a stable order. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { refuseInput } from './imported-history.js';

/** Folders never read when walking a tree: SillyTavern's backups hold copies of the chats themselves. */
const IGNORED_FOLDERS = new Set(['backups', 'node_modules', '.git']);

/**
 * Every file under `paths` whose name ends with `extension` (a folder is walked recursively, a file is taken as
 * given), sorted so two runs read the same files in the same order. A missing path, or a folder without any
 * such file, is refused.
 */
export function listImportFiles(paths: readonly string[], extension: string): string[] {
  const files = new Set<string>();
  for (const path of paths) {
    let isFolder: boolean;
    try {
      isFolder = statSync(path).isDirectory();
    } catch {
      throw refuseInput(path, 'no such file or folder', 'Check the path (quote it if it has spaces)');
    }
    if (!isFolder) {
      files.add(path);
      continue;
    }
    const found = walk(path, extension);
    if (found.length === 0) {
      throw refuseInput(
        path,
        `no ${extension} file in this folder`,
        `Pass a ${extension} file or a folder holding some`,
      );
    }
    for (const file of found) files.add(file);
  }
  return [...files].sort();
}

function walk(folder: string, extension: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !IGNORED_FOLDERS.has(entry.name)) found.push(...walk(path, extension));
    else if (entry.isFile() && entry.name.endsWith(extension)) found.push(path);
  }
  return found;
}
