import ts from "typescript";

/** An assertion that puts an upper bound on something measured in wall-clock time. */
export interface DurationBound {
  readonly file: string;
  readonly line: number;
  readonly matcher: string;
  /** The source text of what `expect(…)` was given. */
  readonly subject: string;
}

const UPPER_BOUND_MATCHERS = new Set(["toBeLessThan", "toBeLessThanOrEqual"]);

// What a duration looks like in this code base: a name ending in Ms, the words elapsed/latency/duration, a
// clock read, or a difference from a moment taken earlier.
const DURATION_SUBJECT = [
  /[a-z0-9_]Ms\b/,
  /\bms\b/i,
  /elapsed|latency|duration/i,
  /\b(?:performance\.now|Date\.now|process\.hrtime)\b/,
  // `x - started`, `x - run.createdAt`, `x - stopping`: a time taken earlier in the test.
  /-\s*(?:[\w$]+\.)*(?:[a-z][\w$]*(?:ed|At|Time|ing)|start|begin|t0|before)\b/,
];

/** Whether `expect(subject)` reads as a duration. */
export function looksLikeDuration(subject: string): boolean {
  return DURATION_SUBJECT.some((pattern) => pattern.test(subject));
}

/** Every `expect(<duration>)….toBeLessThan[OrEqual](…)` in one test file's source. */
export function findDurationBounds(file: string, source: string): DurationBound[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: DurationBound[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const matcher = node.expression.name.text;
      if (UPPER_BOUND_MATCHERS.has(matcher)) {
        const subject = expectSubject(node.expression.expression);
        if (subject !== undefined && looksLikeDuration(subject.getText(sourceFile))) {
          const { line } = sourceFile.getLineAndCharacterOfPosition(
            node.expression.name.getStart(sourceFile),
          );
          found.push({ file, line: line + 1, matcher, subject: subject.getText(sourceFile) });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

// Walks `expect(x).not.resolves…` (or `expect.soft(x)…`) down to the `expect` call and returns `x`.
function expectSubject(chain: ts.Expression): ts.Expression | undefined {
  let node: ts.Expression = chain;
  for (;;) {
    if (ts.isPropertyAccessExpression(node)) {
      node = node.expression;
    } else if (ts.isCallExpression(node)) {
      if (isExpectCallee(node.expression)) return node.arguments[0];
      return undefined;
    } else {
      return undefined;
    }
  }
}

function isExpectCallee(callee: ts.Expression): boolean {
  if (ts.isIdentifier(callee)) return callee.text === "expect";
  return (
    ts.isPropertyAccessExpression(callee) &&
    ts.isIdentifier(callee.expression) &&
    callee.expression.text === "expect" &&
    callee.name.text === "soft"
  );
}

/** A file the check reads: test files and the helpers beside them, not benchmarks (which measure). */
export function isTestSource(path: string): boolean {
  if (!path.endsWith(".ts") || path.endsWith(".d.ts")) return false;
  if (/(^|\/)(node_modules|dist|bench)\//.test(path)) return false;
  return /\.test\.ts$/.test(path) || /(^|\/)(test|__fixtures__|__support__)\//.test(path);
}
