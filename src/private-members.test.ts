/**
 * @module One private-member style: classes hide members as `#name` (enforced by the runtime), never with
 * TypeScript's `private` keyword (erased at compile time). docs/architecture.md states the rule.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = fileURLToPath(new URL('.', import.meta.url));

function listTypeScript(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTypeScript(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Members declared `private` (fields, methods, accessors, parameter properties); a private constructor has no `#` form. */
function findPrivateMembers(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const isPrivate =
      !ts.isConstructorDeclaration(node) &&
      ts.canHaveModifiers(node) &&
      ts.getModifiers(node)?.some((modifier) => modifier.kind === ts.SyntaxKind.PrivateKeyword) === true;
    if (isPrivate) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(SRC, path)}:${line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no class member is declared with the `private` keyword: use a #field', () => {
  const files = listTypeScript(SRC);
  assert.ok(files.length > 100, 'the source files were found');
  assert.deepEqual(files.flatMap(findPrivateMembers), []);
});
