import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The English texts the api can answer people with, read from the code (for the catalogue's
 * completeness test, messages.test.ts): what core/src and api/src pass to the error helpers
 * (badRequest, conflict, notFound, forbidden, unauthorized, unavailable, new UserError), the
 * rate limits' messages, the error handler's own, and the zod contract's field messages;
 * and the reconciler's findings, which the admin's report shows (kind 'finding': see
 * findingsOf). Each is a pattern: '{}' stands for a value the code fills in. A value alone
 * ('{}': a message handed over from elsewhere) is left out; its source is scanned where it
 * is written.
 */
export type SourceMessage = { pattern: string; kind: 'message' | 'field' | 'finding'; where: string };

const HELPERS = new Set(['badRequest', 'conflict', 'notFound', 'forbidden', 'unauthorized', 'unavailable']);
const ZOD_CHECKS = new Set(['min', 'max', 'length', 'regex', 'int', 'email', 'url', 'gte', 'lte', 'gt', 'lt', 'positive', 'nonnegative', 'refine']);
const MAX_VARIANTS = 16;
const REASON_FUNCTION = /(Reason|^blockedWalletMessage|^payoutHold)$/;

/** What a function returns: an arrow's expression, or its own return statements (not those of functions inside it). */
function returnsOf(node: ts.FunctionDeclaration | ts.VariableDeclaration): ts.Expression[] {
  const fn = ts.isFunctionDeclaration(node) ? node : (node.initializer as ts.ArrowFunction);
  if (fn.body && !ts.isBlock(fn.body)) return [fn.body];
  const found: ts.Expression[] = [];
  const visit = (child: ts.Node) => {
    if (ts.isReturnStatement(child) && child.expression) found.push(child.expression);
    if (!ts.isFunctionLike(child)) ts.forEachChild(child, visit);
  };
  if (fn.body) ts.forEachChild(fn.body, visit);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => !/[/\\](generated|testing)[/\\]/.test(file));
}

type Constants = { global: Map<string, ts.Expression>; local: Map<string, ts.Expression>; depth: number };

/** Every `const name = ...` of a file; those named in capitals are the shared message constants (UNKNOWN_REFERRAL_CODE, ...). */
function constantsOf(file: ts.SourceFile): Map<string, ts.Expression> {
  const constants = new Map<string, ts.Expression>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) constants.set(node.name.text, node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return constants;
}

const isConstantName = (name: string) => /^[A-Z][A-Z0-9_]+$/.test(name);
function constantValue(name: string, constants: Constants): string[] {
  const expr = constants.local.get(name) ?? (isConstantName(name) ? constants.global.get(name) : undefined);
  return expr && constants.depth < 4 ? patternsOf(expr, { ...constants, depth: constants.depth + 1 }) : ['{}'];
}

/** The texts an expression can be, with '{}' for what is only known when it runs. */
function patternsOf(expr: ts.Expression, constants: Constants): string[] {
  if (ts.isStringLiteralLike(expr)) return [expr.text];
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr)) return patternsOf(expr.expression, constants);
  if (ts.isIdentifier(expr)) return constantValue(expr.text, constants);
  if (ts.isPropertyAccessExpression(expr)) return isConstantName(expr.name.text) ? constantValue(expr.name.text, constants) : ['{}'];
  if (ts.isConditionalExpression(expr)) return [...patternsOf(expr.whenTrue, constants), ...patternsOf(expr.whenFalse, constants)];
  if (ts.isBinaryExpression(expr) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(expr.operatorToken.kind)) {
    return [...patternsOf(expr.left, constants), ...patternsOf(expr.right, constants)];
  }
  if (ts.isTemplateExpression(expr)) {
    let variants = [expr.head.text];
    for (const span of expr.templateSpans) {
      // A value written in: its literal choices when it has some ('' or ' (yours hold {})') or
      // a constant's text (`${held} but ...`: the sentence begun in `held`), else '{}'.
      const known = ts.isConditionalExpression(span.expression) || ts.isIdentifier(span.expression);
      const inner = patternsOf(span.expression, constants).map((p) => (p === '' ? '' : p.includes('{}') && !known ? '{}' : p));
      variants = variants.flatMap((v) => inner.map((i) => v + i + span.literal.text)).slice(0, MAX_VARIANTS);
    }
    return variants.map((v) => v.replace(/(\{\})+/g, '{}'));
  }
  return ['{}'];
}

function callName(node: ts.CallExpression | ts.NewExpression): string | undefined {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function objectHas(node: ts.ObjectLiteralExpression, name: string): boolean {
  return node.properties.some((p) => p.name && ts.isIdentifier(p.name) && p.name.text === name);
}

type Found = (expr: ts.Expression | undefined, kind: SourceMessage['kind'], node: ts.Node) => void;

const isAssignment = (node: ts.Node): node is ts.BinaryExpression => ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken;
const textual = (expr: ts.Expression) => ts.isStringLiteralLike(expr) || ts.isTemplateExpression(expr);

/**
 * The reconciler's findings (core/src/reconcile), as its report words them: what it passes
 * to `add(check, message, ids)`, the `message`/`text` of a finding a check returns
 * (`{ check, message }`), and the words of the `checked` line (`checked.chain = 'not
 * checked: ...'`; a count or the audit head is a value). And the audit log's breaks
 * (events/audit.ts, `{ seq, message }`), which the reconciler reports as they are.
 */
function findingsOf(node: ts.Node, reconciler: boolean, found: Found): void {
  if (ts.isObjectLiteralExpression(node)) {
    const finding = reconciler && objectHas(node, 'check');
    const auditBreak = objectHas(node, 'seq');
    for (const p of node.properties) {
      if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name)) continue;
      if ((finding && ['message', 'text'].includes(p.name.text)) || (auditBreak && p.name.text === 'message')) found(p.initializer, 'finding', p);
    }
  }
  if (!reconciler) return;
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'add' && node.arguments.length === 3) found(node.arguments[1], 'finding', node);
  if (isAssignment(node) && textual(node.right) && (ts.isPropertyAccessExpression(node.left) || ts.isElementAccessExpression(node.left))) {
    if (ts.isIdentifier(node.left.expression) && node.left.expression.text === 'checked') found(node.right, 'finding', node);
  }
}

/** The messages of one file. */
function messagesOf(file: ts.SourceFile, global: Map<string, ts.Expression>, root: string): SourceMessage[] {
  const constants = { global, local: constantsOf(file), depth: 0 };
  const found: SourceMessage[] = [];
  const where = (node: ts.Node) => `${path.relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  const add: Found = (expr, kind, node) => {
    if (!expr) return;
    for (const pattern of patternsOf(expr, constants)) {
      // parseId's own `${what} not found`: each caller's noun is read where it calls it.
      // A finding's text without a word is a value ('{}:{}', the audit head).
      const words = kind === 'finding' ? /[a-z]/i.test(pattern.replace(/\{\}/g, '')) : pattern.replace(/\{\}/g, '').trim();
      if (words && pattern !== '{} not found') found.push({ pattern, kind, where: where(node) });
    }
  };
  const contract = /[/\\]contract[/\\]/.test(file.fileName);
  const handler = file.fileName.endsWith(path.join('middleware', 'error-handler.ts'));
  const errorsFile = file.fileName.endsWith(path.join('infra', 'errors.ts'));
  // The deposit sweeper's reasons are its status on the admin's sweeper page, never thrown.
  const sweeper = /[/\\]deposit-sweeper[/\\]/.test(file.fileName);
  const reconciler = /[/\\]reconcile[/\\]/.test(file.fileName);
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && callName(node) === 'UserError') add(node.arguments?.[1], 'message', node);
    if (ts.isCallExpression(node)) {
      const name = callName(node);
      if (name && HELPERS.has(name) && ts.isIdentifier(node.expression)) add(node.arguments[0], 'message', node);
      // The error handler's own answers: spoken(req, 'Internal server error').
      if (handler && name === 'spoken') add(node.arguments[1], 'message', node);
      // parseId(id, 'Order'): a 404 'Order not found'.
      const what = node.arguments[1];
      if (name === 'parseId' && what && ts.isStringLiteralLike(what)) found.push({ pattern: `${what.text} not found`, kind: 'message', where: where(node) });
      if (contract && name && ZOD_CHECKS.has(name)) for (const arg of node.arguments) if (ts.isStringLiteralLike(arg) || ts.isTemplateExpression(arg)) add(arg, 'field', node);
    }
    if (ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) {
        if (!ts.isPropertyAssignment(p) || !ts.isIdentifier(p.name)) continue;
        const key = p.name.text;
        if (contract && (key === 'message' || key === 'error') && ts.isCallExpression(node.parent)) add(p.initializer, 'field', p);
        if (key === 'message' && objectHas(node, 'windowSeconds')) add(p.initializer, 'message', p);
        // A refusal handed back to the caller, who throws it ({ factor: null, refusal: CODE_WRONG }).
        if (key === 'refusal') add(p.initializer, 'message', p);
      }
    }
    // A function that says why something is refused, for the caller to throw (deleteBlockedReason, blockedWalletMessage, payoutHold).
    const reasonFn = ts.isFunctionDeclaration(node) || (ts.isVariableDeclaration(node) && node.initializer && ts.isArrowFunction(node.initializer)) ? node : undefined;
    const reasonName = reasonFn?.name && ts.isIdentifier(reasonFn.name) ? reasonFn.name.text : '';
    if (reasonFn && REASON_FUNCTION.test(reasonName) && !sweeper) for (const returned of returnsOf(reasonFn)) add(returned, 'message', returned);
    // The helpers' own defaults (unauthorized(message = 'Not authorized, please sign in')).
    if (errorsFile && ts.isParameter(node) && node.initializer) add(node.initializer, 'message', node);
    if (handler && ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === 'message' && node.initializer) add(node.initializer, 'message', node);
    findingsOf(node, reconciler, add);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The English messages of `dirs` (relative to `root`), each pattern once. */
export function scanMessages(root: string, dirs: string[]): SourceMessage[] {
  const files = dirs.flatMap((dir) => sourceFiles(path.join(root, dir))).map((file) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  const constants = new Map(files.flatMap((file) => [...constantsOf(file)].filter(([name]) => isConstantName(name))));
  const seen = new Map<string, SourceMessage>();
  for (const file of files) for (const m of messagesOf(file, constants, root)) if (!seen.has(`${m.kind}:${m.pattern}`)) seen.set(`${m.kind}:${m.pattern}`, m);
  return [...seen.values()];
}
