// @ts-check
/**
 * The documentation site's own rules, a TypeDoc plugin loaded by typedoc.json (`plugin`):
 *
 * - A code span of a guide or the README that names an exported symbol (`rateLimit()`,
 *   `RedisStore`, `new RedisStore(...)`) or a subpath (`api-conventions/redis`) links to its
 *   reference page, so every guide links to the symbols it uses while its Markdown stays plain
 *   for readers on GitHub. Code spans in headings and in the text of a link stay as they are.
 * - Headings keep their inline code: in the page, in "On this page" and in their anchor
 *   (`## Fastify: route schemas and \`@fastify/swagger\`` is `#fastify-route-schemas-and-fastifyswagger`,
 *   as on GitHub). TypeDoc reads a heading's text tokens only.
 * - A bare file name is not a link: markdown-it's linkify took `CONTRIBUTING.md` for a web
 *   address (`.md` is a country's domain). Addresses with their scheme still link.
 */
import { Application, Converter, ReflectionKind } from 'typedoc';

/** The kinds of reflection a code span may name. */
const linkable =
  ReflectionKind.Class |
  ReflectionKind.Interface |
  ReflectionKind.TypeAlias |
  ReflectionKind.Function |
  ReflectionKind.Variable |
  ReflectionKind.Enum;

/** `name`, `name()`, `name(…)`, `name<…>`, `new Name(…)`: the name is group 1. */
const namePattern = /^`(?:new\s+)?([A-Za-z_$][\w$]*)(?:\(.*\)|<.*>)?`$/s;
/** `api-conventions` and its subpaths. */
const modulePattern = /^`(api-conventions(?:\/[a-z]+)?)`$/;

/**
 * @param {string} text
 * @returns {string}
 */
function escapeHtml(text) {
  return text.replace(/[&<>"'*_[\]]/g, (c) => `&#${/** @type {number} */ (c.codePointAt(0))};`);
}

/**
 * Each name a code span may use, mapped to the reflections it may mean: one, or one per adapter
 * where each has its own (`identityOf`). A name the root module declares means the root's.
 *
 * @param {import('typedoc').ProjectReflection} project
 * @returns {Map<string, import('typedoc').Reflection[]>}
 */
function symbolTable(project) {
  /** @type {Map<string, import('typedoc').Reflection[]>} */
  const table = new Map();
  for (const reflection of project.getReflectionsByKind(linkable)) {
    if (!reflection.parent?.kindOf(ReflectionKind.Module)) continue;
    table.set(reflection.name, [...(table.get(reflection.name) ?? []), reflection]);
  }
  for (const [name, list] of table) {
    const root = list.filter((r) => r.parent?.name === 'api-conventions');
    if (root.length === 1) table.set(name, root);
  }
  for (const module of project.getReflectionsByKind(ReflectionKind.Module)) {
    table.set(module.name, [module]);
  }
  return table;
}

/** The words that say which adapter a passage is about, by subpath. */
const hostWords = {
  node: 'node:http',
  express: 'Express',
  fastify: 'Fastify',
  fetch: 'Hono',
  koa: 'Koa',
  nest: 'NestJS',
};

/**
 * Where `text` last (or, with `near`, most nearly) mentions each candidate's subpath; the one
 * candidate mentioned best, or none.
 *
 * @param {import('typedoc').Reflection[]} candidates
 * @param {string} text
 * @param {number} [near] a position in `text`: the nearest mention wins, not the last
 * @returns {import('typedoc').Reflection | undefined}
 */
function mentionedIn(candidates, text, near) {
  let best;
  let bestScore = -Infinity;
  let tie = false;
  for (const candidate of candidates) {
    const sub = /^api-conventions\/([a-z]+)$/.exec(candidate.parent?.name ?? '')?.[1];
    if (sub === undefined) continue;
    const word = hostWords[/** @type {keyof typeof hostWords} */ (sub)];
    const pattern = new RegExp(
      `api-conventions/${sub}\\b|\`/${sub}\`${word ? `|${word}` : ''}`,
      'g',
    );
    let score = -Infinity;
    for (const m of text.matchAll(pattern)) {
      score = Math.max(score, near === undefined ? m.index : -Math.abs(m.index - near));
    }
    if (score === -Infinity) continue;
    if (score > bestScore) [best, bestScore, tie] = [candidate, score, false];
    else if (score === bestScore) tie = true;
  }
  return tie ? undefined : best;
}

/**
 * Which of several reflections a code span means, from what its passage mentions: the header of
 * its table column, then its own line, then (outside a table) its section so far.
 *
 * @param {import('typedoc').Reflection[]} candidates
 * @param {string} full the page's text
 * @param {number} at where the code span starts
 */
function chooseFrom(candidates, full, at) {
  if (candidates.length === 1) return candidates[0];
  const lineStart = full.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = full.indexOf('\n', at) === -1 ? full.length : full.indexOf('\n', at);
  const line = full.slice(lineStart, lineEnd);
  if (line.trimStart().startsWith('|')) {
    const column = full.slice(lineStart, at).split('|').length - 1;
    let header = lineStart;
    while (header > 0) {
      const previous = full.lastIndexOf('\n', header - 2) + 1;
      if (!full.slice(previous, header).trimStart().startsWith('|')) break;
      header = previous;
    }
    const cell = full.slice(header, full.indexOf('\n', header)).split('|')[column] ?? '';
    const chosen = mentionedIn(candidates, cell);
    if (chosen) return chosen;
  }
  const onLine = mentionedIn(candidates, line, at - lineStart);
  if (onLine || line.trimStart().startsWith('|')) return onLine;
  const headings = [...full.slice(0, at).matchAll(/^#{1,6}\s/gm)];
  return mentionedIn(candidates, full.slice(headings.at(-1)?.index ?? 0, at));
}

/**
 * Turns the code spans of one page's Markdown that name a symbol into links to it.
 *
 * @param {import('typedoc').CommentDisplayPart[]} parts
 * @param {Map<string, import('typedoc').Reflection[]>} table
 * @returns {import('typedoc').CommentDisplayPart[]}
 */
function linkCodeSpans(parts, table) {
  const full = parts.map((part) => part.text).join('');
  let at = 0;
  return parts.map((part) => {
    const start = at;
    at += part.text.length;
    if (part.kind !== 'code' || part.text.startsWith('``')) return part;
    const name = modulePattern.exec(part.text)?.[1] ?? namePattern.exec(part.text)?.[1];
    const candidates = name === undefined ? undefined : table.get(name);
    if (candidates === undefined) return part;
    const before = full.slice(full.lastIndexOf('\n', start - 1) + 1, start);
    const inHeading = /^\s{0,3}#{1,6}\s/.test(before);
    const inLinkText = (before.match(/\[/g)?.length ?? 0) > (before.match(/\]/g)?.length ?? 0);
    if (inHeading || inLinkText) return part;
    const target = chooseFrom(candidates, full, start);
    if (target === undefined) return part;
    return {
      kind: 'inline-tag',
      tag: '@linkcode',
      text: escapeHtml(part.text.slice(1, -1)),
      target,
    };
  });
}

/**
 * Inline code in a heading, as text inside `<code>`, so TypeDoc counts it in the heading's
 * text, anchor and "On this page" entry.
 *
 * @param {any} parser markdown-it, which ships no types
 */
function headingsKeepCode(parser) {
  parser.core.ruler.push(
    'heading_code_as_text',
    /** @param {any} state */ (state) => {
      const tokens = state.tokens;
      for (let i = 0; i < tokens.length; i++) {
        if (tokens[i].type !== 'heading_open') continue;
        const inline = tokens[i + 1];
        if (!inline?.children) continue;
        inline.children = inline.children.flatMap(
          /** @param {any} token */ (token) => {
            if (token.type !== 'code_inline') return [token];
            const open = new state.Token('html_inline', '', 0);
            open.content = '<code>';
            const text = new state.Token('text', '', 0);
            text.content = token.content;
            const close = new state.Token('html_inline', '', 0);
            close.content = '</code>';
            return [open, text, close];
          },
        );
      }
    },
  );
}

/** @param {Application} app */
export function load(app) {
  app.on(Application.EVENT_BOOTSTRAP_END, () => {
    app.options.setValue(
      'markdownItLoader',
      /** @param {any} parser */ (parser) => {
        parser.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
        headingsKeepCode(parser);
      },
    );
  });
  // After TypeDoc resolved the links its own tags make.
  app.converter.on(
    Converter.EVENT_RESOLVE_END,
    (context) => {
      const project = context.project;
      const table = symbolTable(project);
      for (const document of project.getReflectionsByKind(ReflectionKind.Document)) {
        const doc = /** @type {import('typedoc').DocumentReflection} */ (document);
        doc.content = linkCodeSpans(doc.content, table);
      }
      if (project.readme) project.readme = linkCodeSpans(project.readme, table);
    },
    -100,
  );
}
