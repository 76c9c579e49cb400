/** Rules on the static text of a pattern: case, joins, extensions, encoding (spec 4.1.2–4.1.6). */
import { finding, type LintFinding } from './lint-finding.ts';
import { type Item, type ParsedPattern, printPattern, versionOf } from './parse-pattern.ts';

/** Where a text piece sits in its segment, which decides what counts as an extension. */
interface Place {
  atStart: boolean;
  atEnd: boolean;
  /** The piece is the `/v{n}` segment, which has its own rule (spec 9.1). */
  version: boolean;
}

/**
 * What a rule makes of one text piece: `undefined` when it is fine, else the corrected text,
 * `null` to drop the whole segment, or `{ fix: undefined }` when no correction can be derived.
 */
type Verdict = { fix: string | null | undefined } | undefined;

interface TextRule {
  check(value: string, place: Place): Verdict;
  explain(pieces: string): string;
  /** The message when an offender can never be in a request path, which makes it an error. */
  unreachable?(pieces: string): string;
}

// Implementation languages and servers (spec 4.1.2); format suffixes such as .json are allowed
// by spec 4.5, so they are known but not reported.
const implementationExtensions = new Set(
  (
    'php php3 php4 php5 php7 phtml asp aspx ascx ashx asmx axd jsp jspx jsf do action cgi fcgi ' +
    'pl pm py pyc rb erb cfm cfml cfc exe dll so html htm shtml xhtml nsf'
  ).split(' '),
);
const formatExtensions = new Set('json xml csv txt yaml yml atom rss'.split(' '));
const scriptNames = new Set(['index', 'default', 'main', 'home']);

function splitExtension(value: string, place: Place): [stem: string, extension: string] {
  const match = place.atEnd ? /\.([A-Za-z0-9]+)$/.exec(value) : null;
  const extension = match?.[1]?.toLowerCase() ?? '';
  return implementationExtensions.has(extension) || formatExtensions.has(extension)
    ? [value.slice(0, match!.index), match![0]]
    : [value, ''];
}

/**
 * The rules this file checks; the caller interleaves them with the others in report order.
 *
 * @category Lint
 */
type TextLintRule = 'lower-case' | 'hyphen-words' | 'no-extension' | 'no-encoding';

// spec 4.1.3: a request that differs in case gets 404, so the route itself must be lower-case.
// Percent-encoding hex is not a letter of the path: the path rule ignores it too (docs/route-lint.md).
const lowerCase: TextRule = {
  check: (value) =>
    /\p{Lu}/u.test(value.replace(/%[0-9A-Fa-f]{2}/g, ''))
      ? {
          fix: value
            .split(/(%[0-9A-Fa-f]{2})/)
            .map((chunk, i) =>
              i % 2 === 1
                ? chunk
                : chunk
                    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1-$2')
                    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1-$2')
                    .toLowerCase(),
            )
            .join(''),
        }
      : undefined,
  explain: (pieces) =>
    `upper-case letters in ${pieces}; paths are entirely lower-case, ` +
    'and a request that differs in case gets 404',
};

// spec 4.1.6: words are joined with '-'; a trailing extension is not a word and stays.
const hyphenWords: TextRule = {
  check(value, place) {
    if (place.version) return undefined;
    const [stem, extension] = splitExtension(value, place);
    let joined = stem;
    // A separator at a segment edge joins nothing, so it goes rather than turning into '-'.
    if (place.atStart) joined = joined.replace(/^[_+]+/, '');
    if (place.atEnd) joined = joined.replace(/[_+]+$/, '');
    joined = joined
      .replace(/-*[_+][-_+]*/g, '-')
      .replace(/(?<=[\p{L}\p{N}])[.~]+(?=[\p{L}\p{N}])/gu, '-');
    return joined === stem ? undefined : { fix: joined + extension };
  },
  explain: (pieces) => `words in ${pieces} are joined with something other than a hyphen`,
};

// spec 4.1.2: script names and implementation extensions tie the URL to today's server.
const noExtension: TextRule = {
  check(value, place) {
    if (place.version) return undefined;
    const whole = place.atStart && place.atEnd;
    if (whole && value.toLowerCase() === 'cgi-bin') return { fix: null };
    const [stem, extension] = splitExtension(value, place);
    if (!implementationExtensions.has(extension.slice(1).toLowerCase())) return undefined;
    return { fix: whole && scriptNames.has(stem.toLowerCase()) ? null : stem };
  },
  explain: (pieces) =>
    `${pieces} names a script or an implementation file extension, which leaks server architecture`,
};

// Characters a request path never carries as such: clients percent-encode them (WHATWG URL,
// path percent-encode set) or they end the path, so a route spelling them out is never reached.
const neverInRequest = /[^\x21-\x7E]|["#<>?`{}]/u;

// spec 4.1.5: only RFC 3986 unreserved characters go unencoded in every client.
const noEncoding: TextRule = {
  check(value, place) {
    // '+' is reported by hyphen-words, and upper case by lower-case, so each shows up once.
    if (!/[^A-Za-z0-9._~+-]/.test(value)) return undefined;
    let fix = value
      .replace(/(?:%20|\s)+/gi, '-')
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/-{2,}/g, '-');
    // An encoded space at a segment edge separated nothing, so it goes.
    if (place.atStart && !value.startsWith('-')) fix = fix.replace(/^-/, '');
    if (place.atEnd && !value.endsWith('-')) fix = fix.replace(/-$/, '');
    return { fix: /[^A-Za-z0-9._~+-]/.test(fix) ? undefined : fix };
  },
  explain: (pieces) =>
    `${pieces} has characters that need percent-encoding in a URL; ` +
    "use only a-z, 0-9, '-', '.', '_' and '~'",
  unreachable: (pieces) =>
    `${pieces} has characters that need percent-encoding in a URL, and requests carry them ` +
    "encoded, so none reaches the route; use only a-z, 0-9, '-', '.', '_' and '~'",
};

const textRules: Readonly<Record<TextLintRule, TextRule>> = {
  'lower-case': lowerCase,
  'hyphen-words': hyphenWords,
  'no-extension': noExtension,
  'no-encoding': noEncoding,
};

/**
 * Checks every static text piece against one text rule; one finding lists all offenders.
 *
 * @category Lint
 */
export function checkText(parsed: ParsedPattern, rule: TextLintRule): LintFinding | undefined {
  const textRule = textRules[rule];
  const version = versionOf(parsed) !== undefined;
  const fixed: (Item | null)[] = [...parsed.items];
  const offenders: string[] = [];
  let derivable = true;
  parsed.segments.forEach((segment, s) => {
    segment.parts.forEach((part, p) => {
      if (part.item.type !== 'text') return;
      const place = {
        atStart: p === 0,
        atEnd: p === segment.parts.length - 1,
        version: s === 0 && version,
      };
      const verdict = textRule.check(part.item.value, place);
      if (verdict === undefined) return;
      if (!offenders.includes(part.item.value)) offenders.push(part.item.value);
      if (verdict.fix === undefined) derivable = false;
      else if (verdict.fix === null) {
        // Dropping a segment drops the slash before it too.
        fixed[part.at] = null;
        let slash = part.at;
        while (slash > 0 && parsed.items[slash]?.type !== 'slash') slash--;
        if (parsed.items[slash]?.type === 'slash') fixed[slash] = null;
      } else fixed[part.at] = verdict.fix === '' ? null : { type: 'text', value: verdict.fix };
    });
  });
  if (offenders.length === 0) return undefined;
  const pieces = offenders.map((piece) => `\`${piece}\``).join(', ');
  const fix = derivable ? printPattern(fixed) : undefined;
  const unreachable = textRule.unreachable;
  if (unreachable && offenders.some((piece) => neverInRequest.test(piece))) {
    return finding(rule, parsed.pattern, unreachable(pieces), fix, undefined, 'error');
  }
  return finding(rule, parsed.pattern, textRule.explain(pieces), fix);
}
