/**
 * @module Reads every config key where it is declared: the `section({...})` properties of src/config's schema
 * files, with their JSDoc, each under the path a user writes in memory-pool.yaml (`bots.<name>.chunk.idleMs`).
 * The TypeScript compiler reads the sources, so the documentation lives beside the code it describes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** One key as declared: its path, its JSDoc (text and tags), and where it is written. */
export interface DeclaredKey {
  readonly path: string;
  readonly doc: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly where: string;
  /** True when the key holds no section of its own (a value the user writes). */
  readonly leaf: boolean;
}

/** Every key of the schema rooted at `rootName` (exported from config-schema.ts), in declaration order. */
export function readDeclaredKeys(configDir: string, rootName = 'configSchema'): DeclaredKey[] {
  const declarations = new Map<string, { node: ts.Expression; file: ts.SourceFile }>();
  for (const name of readdirSync(configDir).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
    const file = ts.createSourceFile(
      name,
      readFileSync(join(configDir, name), 'utf8'),
      ts.ScriptTarget.Latest,
      true,
    );
    file.forEachChild((statement) => {
      if (!ts.isVariableStatement(statement)) return;
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer !== undefined)
          declarations.set(declaration.name.text, { node: declaration.initializer, file });
      }
    });
  }
  const isSchemaVar = (name: string): boolean => {
    const found = declarations.get(name);
    return (
      found !== undefined &&
      !ts.isArrowFunction(found.node) &&
      /\bsection\(|z\s*\.\s*(record|array)\(/.test(found.node.getText())
    );
  };
  const keys: DeclaredKey[] = [];

  /** The object literal of the first `section({...})` call in `node`, outside nested functions. */
  const findSection = (node: ts.Node): ts.ObjectLiteralExpression | undefined => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'section') {
      const [shape] = node.arguments;
      if (shape !== undefined && ts.isObjectLiteralExpression(shape)) return shape;
    }
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return undefined;
    return ts.forEachChild(node, findSection);
  };

  /** The schema variables `node` refers to, each with the path step its wrapper adds (`[]`, `.<name>`). */
  const findReferences = (node: ts.Node, step = ''): { name: string; step: string }[] => {
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return [];
    if (ts.isIdentifier(node) && isSchemaVar(node.text)) return [{ name: node.text, step }];
    let inner = step;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      if (method === 'array' && node.expression.expression.getText() === 'z') inner = `${step}[]`;
      if (method === 'record' && node.expression.expression.getText() === 'z') inner = `${step}.<name>`;
      if (inner !== step) return node.arguments.flatMap((argument) => findReferences(argument, inner));
    }
    const found: { name: string; step: string }[] = [];
    node.forEachChild((child) => {
      found.push(...findReferences(child, step));
    });
    return found;
  };

  const walkSection = (shape: ts.ObjectLiteralExpression, file: ts.SourceFile, prefix: string): void => {
    for (const property of shape.properties) {
      if (!ts.isPropertyAssignment(property) || !ts.isIdentifier(property.name)) continue;
      const path = `${prefix}${property.name.text}`;
      const before = keys.length;
      walkValue(property.initializer, file, path);
      const jsDoc = ts.getJSDocCommentsAndTags(property).filter(ts.isJSDoc);
      const doc = jsDoc
        .map((d) => ts.getTextOfJSDocComment(d.comment) ?? '')
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
      const tags = Object.fromEntries(
        jsDoc
          .flatMap((d) => d.tags ?? [])
          .map((tag) => [
            tag.tagName.text,
            (ts.getTextOfJSDocComment(tag.comment) ?? '').replace(/\s+/g, ' ').trim(),
          ]),
      );
      const { line } = file.getLineAndCharacterOfPosition(property.getStart());
      keys.splice(before, 0, {
        path,
        doc,
        tags,
        where: `src/config/${file.fileName}:${line + 1}`,
        leaf: keys.length === before,
      });
    }
  };

  const walkValue = (value: ts.Expression, file: ts.SourceFile, path: string): void => {
    const inline = findSection(value);
    if (inline !== undefined) walkSection(inline, file, `${path}.`);
    else for (const { name, step } of findReferences(value)) walkVar(name, `${path}${step}`);
  };

  const walkVar = (name: string, path: string): void => {
    const found = declarations.get(name);
    if (found === undefined) throw new Error(`no declaration of ${name}`);
    const shape = findSection(found.node);
    if (shape !== undefined) walkSection(shape, found.file, path === '' ? '' : `${path}.`);
    else for (const ref of findReferences(found.node)) walkVar(ref.name, `${path}${ref.step}`);
  };

  walkVar(rootName, '');
  return keys;
}
