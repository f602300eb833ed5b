import ts from 'typescript';

/**
 * Every class list the app hands to `cn` (lib/utils.ts), read from its source: each
 * `cn(...)` call, with every value each of its arguments can take. A component's prop
 * (`className`, a cva variant) takes the values its callers' JSX gives it, caller by
 * caller (a caller's own props likewise), so the lists are the ones the app can render,
 * not every mix of them. What it cannot tell (a value computed at run time) is an error
 * naming the place: write it as a literal, a condition between literals, or a constant.
 */

/** A component, bound to the JSX element that renders it. */
type Env = ReadonlyMap<ts.Node, ts.JsxOpeningLikeElement>;

/** A prop of a component that is not bound yet: try each of its callers. */
class Unbound {
  constructor(readonly component: ts.SignatureDeclaration) {}
}

type Param = { component: ts.SignatureDeclaration; prop?: string; rest?: readonly string[] };
type Declaration = ts.Node | Param;

const isParam = (d: Declaration | undefined): d is Param => d !== undefined && 'component' in d;
const join = (...parts: string[]) => parts.filter(Boolean).join(' ');
const unique = (lists: string[]) => [...new Set(lists.map((l) => l.trim().split(/\s+/).filter(Boolean).join(' ')))];

function product(choices: string[][]): string[] {
  return choices.reduce<string[]>((acc, options) => unique(acc.flatMap((a) => options.map((o) => join(a, o)))), ['']);
}

const textOf = (name: ts.PropertyName | ts.BindingName | ts.JsxAttributeName): string | undefined =>
  ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;

export class ClassLists {
  private readonly files = new Map<string, ts.SourceFile>();
  private readonly callers = new Map<ts.Node, ts.JsxOpeningLikeElement[]>();

  /** `sources`: each file's text by its path from the web root ('/src/...'). */
  constructor(sources: Record<string, string>) {
    for (const [path, text] of Object.entries(sources)) {
      this.files.set(path, ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS));
    }
  }

  /** Each `cn(...)` call of the app, with the class lists it can be given. */
  all(): { where: string; lists: string[] }[] {
    const calls: ts.CallExpression[] = [];
    for (const file of this.files.values()) {
      const visit = (node: ts.Node) => {
        if (ts.isCallExpression(node) && this.isCn(node.expression)) calls.push(node);
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    return calls.map((call) => ({ where: where(call), lists: this.bound(call, new Map()) }));
  }

  private isCn(callee: ts.Expression): boolean {
    if (!ts.isIdentifier(callee) || callee.text !== 'cn') return false;
    const found = this.declarationOf(callee);
    return found !== undefined && !isParam(found) && ts.isFunctionDeclaration(found) && found.getSourceFile().fileName === '/src/lib/utils.ts';
  }

  /** The lists `node` can be, over every caller of the components whose props it reads. */
  private bound(node: ts.Expression, env: Env): string[] {
    try {
      return this.evaluate(node, env);
    } catch (error) {
      if (!(error instanceof Unbound)) throw error;
      if (!isComponent(error.component)) throw new Error(`${where(node)}: cannot tell the classes of \`${node.getText()}\` (a parameter of a function that is not a component)`);
      return unique(this.callersOf(error.component).flatMap((element) => this.bound(node, new Map([...env, [error.component, element]]))));
    }
  }

  private evaluate(node: ts.Expression, env: Env): string[] {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (ts.isTemplateExpression(node)) {
      return product([[node.head.text], ...node.templateSpans.flatMap((span) => [this.evaluate(span.expression, env), [span.literal.text]])]);
    }
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isSatisfiesExpression(node)) {
      return this.evaluate(node.expression, env);
    }
    if (ts.isConditionalExpression(node)) return unique([...this.evaluate(node.whenTrue, env), ...this.evaluate(node.whenFalse, env)]);
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) return unique(['', ...this.evaluate(node.right, env)]);
    if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || node.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
      return unique([...this.evaluate(node.left, env), ...this.evaluate(node.right, env)]);
    }
    if (node.kind === ts.SyntaxKind.NullKeyword || node.kind === ts.SyntaxKind.FalseKeyword || node.kind === ts.SyntaxKind.TrueKeyword) return [''];
    if (ts.isIdentifier(node)) return node.text === 'undefined' ? [''] : this.valueOf(this.declarationOf(node), node, env);
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) return this.member(node, env);
    if (ts.isCallExpression(node)) return this.call(node, env);
    throw new Error(`${where(node)}: cannot tell the classes of \`${node.getText()}\``);
  }

  private valueOf(declaration: Declaration | undefined, node: ts.Node, env: Env): string[] {
    if (isParam(declaration)) {
      const element = env.get(declaration.component);
      if (!element) throw new Unbound(declaration.component);
      if (!declaration.prop) throw new Error(`${where(node)}: cannot tell the classes of \`${node.getText()}\` (a whole props object)`);
      return this.attribute(element, declaration.prop, env);
    }
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) return this.evaluate(declaration.initializer, env);
    throw new Error(`${where(node)}: cannot tell the classes of \`${node.getText()}\``);
  }

  /** The values a JSX element gives its component's prop `prop` (none: ''). */
  private attribute(element: ts.JsxOpeningLikeElement, prop: string, env: Env): string[] {
    const properties = element.attributes.properties;
    for (let i = properties.length - 1; i >= 0; i--) {
      const attribute = properties[i]!;
      if (ts.isJsxAttribute(attribute) && textOf(attribute.name) === prop) {
        const value = attribute.initializer;
        if (!value) return [''];
        if (ts.isStringLiteral(value)) return [value.text];
        if (ts.isJsxExpression(value) && value.expression) return this.evaluate(value.expression, env);
        return [''];
      }
      if (ts.isJsxSpreadAttribute(attribute)) {
        const spread = ts.isIdentifier(attribute.expression) ? this.declarationOf(attribute.expression) : undefined;
        // `{...props}`, the rest of a component's props: what its own callers gave.
        if (isParam(spread) && spread.rest) {
          if (spread.rest.includes(prop)) continue;
          const element = env.get(spread.component);
          if (!element) throw new Unbound(spread.component);
          return this.attribute(element, prop, env);
        }
        // `{...(label ? { label } : {})}` and the like: object literals, which name the prop or not.
        const objects = this.literalObjects(attribute.expression);
        if (!objects) throw new Error(`${where(attribute)}: cannot tell whether \`{...${attribute.expression.getText()}}\` sets ${prop}`);
        if (objects.some((o) => o.properties.some((p) => p.name && textOf(p.name) === prop))) {
          throw new Error(`${where(attribute)}: write ${prop} as an attribute of its own, not in \`{...${attribute.expression.getText()}}\``);
        }
      }
    }
    return [''];
  }

  /** The object literals a spread can be (`cond ? { a } : {}`, a constant holding one), or undefined when it is something else. */
  private literalObjects(node: ts.Expression): ts.ObjectLiteralExpression[] | undefined {
    const inner = unwrap(node);
    if (ts.isObjectLiteralExpression(inner)) return inner.properties.every((p) => !ts.isSpreadAssignment(p)) ? [inner] : undefined;
    if (ts.isConditionalExpression(inner)) {
      const [a, b] = [this.literalObjects(inner.whenTrue), this.literalObjects(inner.whenFalse)];
      return a && b ? [...a, ...b] : undefined;
    }
    const declaration = ts.isIdentifier(inner) ? this.declarationOf(inner) : undefined;
    if (declaration && !isParam(declaration) && ts.isVariableDeclaration(declaration) && declaration.initializer) return this.literalObjects(declaration.initializer);
    return undefined;
  }

  private member(node: ts.PropertyAccessExpression | ts.ElementAccessExpression, env: Env): string[] {
    // A column's `meta.className` (components/data-table.tsx): every one the app's columns set.
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'className' && /\bmeta$/.test(node.expression.getText())) {
      return unique(['', ...this.columnMetaClasses(env)]);
    }
    const object = ts.isIdentifier(node.expression) ? this.declarationOf(node.expression) : undefined;
    const literal = object && !isParam(object) && ts.isVariableDeclaration(object) ? object.initializer : undefined;
    const properties = literal && unwrap(literal);
    if (!properties || !ts.isObjectLiteralExpression(properties)) throw new Error(`${where(node)}: cannot tell the classes of \`${node.getText()}\``);
    const assignments = properties.properties.filter(ts.isPropertyAssignment);
    const name = ts.isPropertyAccessExpression(node) ? node.name.text : undefined;
    const picked = name === undefined ? assignments : assignments.filter((p) => textOf(p.name) === name);
    if (picked.length === 0) throw new Error(`${where(node)}: \`${node.getText()}\` is not in its object`);
    return unique(picked.flatMap((p) => this.evaluate(p.initializer, env)));
  }

  private columnMetaClasses(env: Env): string[] {
    const found: string[] = [];
    for (const file of this.files.values()) {
      const visit = (node: ts.Node) => {
        if (ts.isPropertyAssignment(node) && textOf(node.name) === 'meta' && ts.isObjectLiteralExpression(node.initializer)) {
          for (const p of node.initializer.properties) if (ts.isPropertyAssignment(p) && textOf(p.name) === 'className') found.push(...this.evaluate(p.initializer, env));
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    return found;
  }

  private call(node: ts.CallExpression, env: Env): string[] {
    if (this.isCn(node.expression)) return product(node.arguments.map((arg) => this.argument(arg, env)));
    const callee = ts.isIdentifier(node.expression) ? this.declarationOf(node.expression) : undefined;
    const init = callee && !isParam(callee) && ts.isVariableDeclaration(callee) ? callee.initializer : undefined;
    if (init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'cva') return this.variants(init, node.arguments[0], env);
    throw new Error(`${where(node)}: cannot tell the classes of \`${node.getText()}\``);
  }

  /** An argument of cn (clsx's): a value, or an object whose keys are classes. */
  private argument(arg: ts.Expression, env: Env): string[] {
    if (ts.isObjectLiteralExpression(arg)) {
      return product(arg.properties.map((p) => (ts.isPropertyAssignment(p) && textOf(p.name) !== undefined ? ['', textOf(p.name)!] : fail(p))));
    }
    return this.evaluate(arg, env);
  }

  /** A cva function's lists: its base, each variant as the call asks (or its default), the call's className. */
  private variants(cva: ts.CallExpression, options: ts.Expression | undefined, env: Env): string[] {
    const [base, config] = cva.arguments;
    if (!base || !config || !ts.isObjectLiteralExpression(config)) throw new Error(`${where(cva)}: a cva call without its variants`);
    const section = (name: string) => {
      const p = config.properties.find((q): q is ts.PropertyAssignment => ts.isPropertyAssignment(q) && textOf(q.name) === name);
      return p && ts.isObjectLiteralExpression(p.initializer) ? p.initializer : undefined;
    };
    const given = options && ts.isObjectLiteralExpression(options) ? options.properties : [];
    const valueOf = (key: string): ts.Expression | undefined => {
      for (const p of given) {
        if (ts.isPropertyAssignment(p) && textOf(p.name) === key) return p.initializer;
        if (ts.isShorthandPropertyAssignment(p) && p.name.text === key) return p.name;
      }
      return undefined;
    };
    const defaults = section('defaultVariants');
    const choices: string[][] = [this.evaluate(base, env)];
    for (const variant of section('variants')?.properties ?? []) {
      if (!ts.isPropertyAssignment(variant) || !ts.isObjectLiteralExpression(variant.initializer)) throw fail(variant);
      const key = textOf(variant.name)!;
      const fallback = defaults?.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && textOf(p.name) === key);
      const asked = valueOf(key);
      const table = variant.initializer.properties.filter(ts.isPropertyAssignment);
      // A variant picked at run time (a status's badge) is one of the variant's options: any of them.
      const picked = asked ? this.orElse(() => this.evaluate(asked, env), () => table.map((p) => textOf(p.name)!)) : [''];
      const names = picked.flatMap((n) => (n === '' ? (fallback ? this.evaluate(fallback.initializer, env) : ['']) : [n]));
      choices.push(unique(names.flatMap((n) => table.filter((p) => textOf(p.name) === n).flatMap((p) => this.evaluate(p.initializer, env)))));
    }
    const className = valueOf('className');
    if (className) choices.push(this.evaluate(className, env));
    return product(choices);
  }

  /** `evaluate`'s values, or `otherwise` when it cannot tell them (a prop not bound yet is asked for still). */
  private orElse(evaluate: () => string[], otherwise: () => string[]): string[] {
    try {
      return evaluate();
    } catch (error) {
      if (error instanceof Unbound) throw error;
      return otherwise();
    }
  }

  /** Where `id` is declared: a constant, a function, an import's target, or a component's prop. */
  private declarationOf(id: ts.Identifier): Declaration | undefined {
    const name = id.text;
    for (let scope: ts.Node | undefined = id.parent; scope; scope = scope.parent) {
      if (ts.isFunctionLike(scope)) {
        const param = paramOf(scope, name);
        if (param) return param;
      }
      if (ts.isBlock(scope) || ts.isSourceFile(scope)) {
        const local = declaredIn(scope.statements, name);
        if (local) return ts.isImportSpecifier(local) ? this.imported(local) : local;
      }
    }
    return undefined;
  }

  private imported(specifier: ts.ImportSpecifier): Declaration | undefined {
    const from = (specifier.parent.parent.parent.moduleSpecifier as ts.StringLiteral).text;
    const file = this.resolve(specifier.getSourceFile().fileName, from);
    if (!file) return undefined;
    const name = (specifier.propertyName ?? specifier.name).text;
    const found = declaredIn(file.statements, name);
    return found && ts.isImportSpecifier(found) ? this.imported(found) : found;
  }

  private resolve(fromFile: string, specifier: string): ts.SourceFile | undefined {
    let base: string;
    if (specifier.startsWith('@/')) base = `/src/${specifier.slice(2)}`;
    else if (specifier.startsWith('.')) base = new URL(specifier, `file://${fromFile}`).pathname;
    else return undefined;
    for (const ext of ['.tsx', '.ts', '/index.tsx', '/index.ts']) {
      const file = this.files.get(base + ext);
      if (file) return file;
    }
    return undefined;
  }

  /** The JSX elements that render `component`. */
  private callersOf(component: ts.Node): ts.JsxOpeningLikeElement[] {
    let found = this.callers.get(component);
    if (found) return found;
    found = [];
    for (const file of this.files.values()) {
      const visit = (node: ts.Node) => {
        if ((ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) && ts.isIdentifier(node.tagName) && /^[A-Z]/.test(node.tagName.text)) {
          const target = this.declarationOf(node.tagName);
          const fn = target && !isParam(target) && ts.isVariableDeclaration(target) ? target.initializer : target;
          if (fn === component) found!.push(node);
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
    this.callers.set(component, found);
    return found;
  }
}

/** A function JSX renders: a capitalized function, or a constant holding one. */
function isComponent(fn: ts.SignatureDeclaration): boolean {
  const name = ts.isFunctionDeclaration(fn) ? fn.name?.text : ts.isVariableDeclaration(fn.parent) && ts.isIdentifier(fn.parent.name) ? fn.parent.name.text : undefined;
  return name !== undefined && /^[A-Z]/.test(name);
}

function unwrap(node: ts.Expression): ts.Expression {
  return ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node) ? unwrap(node.expression) : node;
}

/** A component's prop named `name`: destructured from its first parameter (or the rest of them). */
function paramOf(fn: ts.SignatureDeclaration, name: string): Param | undefined {
  const first = fn.parameters[0];
  if (!first) return undefined;
  if (ts.isIdentifier(first.name)) return first.name.text === name ? { component: fn } : undefined;
  if (!ts.isObjectBindingPattern(first.name)) return undefined;
  const named = first.name.elements.filter((e) => !e.dotDotDotToken).map((e) => textOf(e.propertyName ?? e.name)!);
  for (const element of first.name.elements) {
    if (!ts.isIdentifier(element.name) || element.name.text !== name) continue;
    return element.dotDotDotToken ? { component: fn, rest: named } : { component: fn, prop: textOf(element.propertyName ?? element.name)! };
  }
  return undefined;
}

/** A declaration of `name` among `statements`: a constant, a function, or an import of it. */
function declaredIn(statements: ts.NodeArray<ts.Statement>, name: string): ts.Node | undefined {
  for (const statement of statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
    if (ts.isVariableStatement(statement)) {
      const found = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
      if (found) return found;
    }
    if (ts.isImportDeclaration(statement) && statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)) {
      const found = statement.importClause.namedBindings.elements.find((e) => e.name.text === name);
      if (found) return found;
    }
  }
  return undefined;
}

function where(node: ts.Node): string {
  const file = node.getSourceFile();
  return `${file.fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
}

function fail(node: ts.Node): never {
  throw new Error(`${where(node)}: cannot tell the classes of \`${node.getText()}\``);
}
