/**
 * The rule behind docs/errors.md: every error fw throws carries a stable `code`. JavaScript's
 * own `Error`, `TypeError` and `RangeError` carry none, so framework source may not create
 * them, nor declare an error class that extends them directly; it uses `FrameworkError`,
 * `MisuseError` or `OutOfRangeError` (domain/shared/errors.ts) or a subclass.
 *
 * One shape stays allowed: wrapping a foreign value that is not an Error
 * (`error instanceof Error ? error : new Error(String(error))`), where the code would say
 * nothing the original did not.
 */
import ts from 'typescript';

export interface ErrorRuleFile {
  path: string;
  source: string;
}

export interface ErrorRuleViolation {
  path: string;
  line: number;
  detail: string;
}

const CODELESS = new Set(['Error', 'TypeError', 'RangeError']);

/** Where the three base classes live: the only file that may extend JavaScript's errors. */
const BASE_CLASSES = 'domain/shared/errors.ts';

/** Framework source: tests, benches and examples throw what they like. */
export function isFrameworkSource(path: string): boolean {
  return /^(domain|application|ports|adapters|composition|bin)\//u.test(path);
}

export function checkErrorCodes(files: readonly ErrorRuleFile[]): ErrorRuleViolation[] {
  return files.filter((file) => isFrameworkSource(file.path)).flatMap(checkFile);
}

function checkFile(file: ErrorRuleFile): ErrorRuleViolation[] {
  const sourceFile = ts.createSourceFile(file.path, file.source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const violations: ErrorRuleViolation[] = [];
  const report = (node: ts.Node, detail: string): void => {
    const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
    violations.push({ path: file.path, line: line + 1, detail });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && CODELESS.has(node.expression.text)) {
      if (!wrapsForeignValue(node)) report(node, `${node.expression.text} without a code: use FrameworkError, MisuseError or OutOfRangeError (docs/errors.md)`);
    }
    if (ts.isClassLike(node) && file.path !== BASE_CLASSES) {
      for (const clause of node.heritageClauses ?? []) {
        for (const type of clause.types) {
          if (clause.token === ts.SyntaxKind.ExtendsKeyword && ts.isIdentifier(type.expression) && CODELESS.has(type.expression.text)) {
            report(type, `class ${node.name?.text ?? '(anonymous)'} extends ${type.expression.text}: extend FrameworkError (or MisuseError, OutOfRangeError) so it carries a code`);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return violations;
}

/** `x instanceof Error ? x : new Error(String(x))`: the new Error stands for a thrown non-Error. */
function wrapsForeignValue(node: ts.Node): boolean {
  const parent = node.parent;
  if (!ts.isConditionalExpression(parent) || parent.whenFalse !== node) return false;
  const condition = parent.condition;
  return ts.isBinaryExpression(condition) && condition.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword && ts.isIdentifier(condition.right) && condition.right.text === 'Error';
}
