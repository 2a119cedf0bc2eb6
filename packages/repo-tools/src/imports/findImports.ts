import ts from "typescript";

/** One module specifier a source file names: `import … from`, `export … from`, `import()` or `import("x").T`. */
export interface ImportRef {
  readonly specifier: string;
  /** 1-based. */
  readonly line: number;
  /** `import type`, `export type`, or a type position (`import("x").T`): no runtime edge. */
  readonly typeOnly: boolean;
}

/** Every module specifier in one file's source, in source order. Non-literal `import(x)` is skipped. */
export function findImports(file: string, source: string): ImportRef[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found: ImportRef[] = [];
  const add = (literal: ts.Node, typeOnly: boolean): void => {
    if (!ts.isStringLiteralLike(literal)) return;
    const { line } = sourceFile.getLineAndCharacterOfPosition(literal.getStart(sourceFile));
    found.push({ specifier: literal.text, line: line + 1, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      add(node.moduleSpecifier, node.importClause?.isTypeOnly ?? false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument) add(argument, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function scriptKind(file: string): ts.ScriptKind {
  if (/\.[cm]?jsx?$/.test(file)) return file.endsWith("x") ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
  return file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}
