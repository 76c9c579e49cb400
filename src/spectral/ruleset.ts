/**
 * The conventions a document alone can show, as a Spectral ruleset: path shapes and names (spec
 * 4.1), the version in paths (9.1), paging parameters (4.4) and list envelopes (2.7, 2.8), error
 * bodies (7.1.5), media types (4.6), security schemes (5.1) and date formats (2.6). Each rule has
 * the strength the auditor gives its check (docs/audit.md): a required rule is an `error`, a
 * preferred one a `warn`, a pattern `info`, so `spectral lint` fails on what the spec demands.
 */
import type { Strength } from '../audit/strength.ts';
import {
  dateFormat,
  errorBody,
  listEnvelope,
  mediaType,
  oauthScheme,
  pagedList,
  pagingName,
  pathShape,
  type SpectralFunction,
} from './functions.ts';

/** One rule of the ruleset, in the shape of Spectral's rule definitions. */
export interface SpectralRule {
  /** What the rule asks, with its spec rule. */
  description: string;
  /** `error` for a required rule, `warn` for a preferred one, `info` for a pattern. */
  severity: 'error' | 'warn' | 'info';
  /** The message of a result: its function's (`{{error}}`). */
  message: string;
  /** JSONPath expressions of the places it checks. */
  given: string | string[];
  /** The function that checks each place. */
  then: {
    /** The function. */
    // biome-ignore lint/suspicious/noExplicitAny: each rule's options are its function's own
    function: SpectralFunction<any>;
    /** The options the function takes. */
    functionOptions?: Record<string, unknown>;
  };
  /** Where the spec states the rule. */
  documentationUrl: string;
}

/** A Spectral ruleset, as `Spectral#setRuleset` and `extends` take it. */
export interface SpectralRuleset {
  /** What the ruleset is. */
  description: string;
  /** Where its rules are documented. */
  documentationUrl: string;
  /** Its rules, by name. */
  rules: Record<string, SpectralRule>;
}

const severity: Record<Strength, SpectralRule['severity']> = {
  required: 'error',
  recommended: 'warn',
  pattern: 'info',
};
const docs = 'https://github.com/api-conventions/api-conventions/blob/main/docs/conventions.md';

/** A rule with its strength and the spec rule it checks. */
function rule(
  section: string,
  strength: Strength,
  description: string,
  given: string | string[],
  // biome-ignore lint/suspicious/noExplicitAny: each rule's options are its function's own
  fn: SpectralFunction<any>,
  functionOptions?: Record<string, unknown>,
): SpectralRule {
  return {
    description: `${description} (spec ${section}, ${strength})`,
    message: '{{error}}',
    severity: severity[strength],
    given,
    // biome-ignore lint/suspicious/noThenProperty: Spectral's rules name what they run `then`
    then: { function: fn, ...(functionOptions ? { functionOptions } : {}) },
    documentationUrl: `${docs}#spec-${section.replace(/\./g, '-')}`,
  };
}

const pathKeys = '$.paths[*]~';
const operations = '$.paths[*][get,put,post,delete,options,head,patch,trace]';
const json = 'content[?(@property.match(/json/i))].schema';

/**
 * The api-conventions Spectral ruleset: `extends: [conventions]` in a `.spectral.mjs`, or
 * `spectral.setRuleset(conventions)`; a rule is turned off or graded by its name
 * (`rules: { 'api-conventions-error-body': 'off' }`).
 *
 * @example
 * ```ts
 * // .spectral.mjs, beside the OpenAPI document
 * import { conventions } from 'api-conventions/spectral';
 *
 * export default { extends: [conventions], rules: { 'api-conventions-version-in-path': 'error' } };
 * ```
 */
export const conventions: SpectralRuleset = {
  description: 'api-conventions: the web API conventions a document can show (docs/audit.md).',
  documentationUrl: docs,
  rules: {
    'api-conventions-path-lower-case': rule(
      '4.1.3',
      'required',
      'Paths are entirely lower-case',
      pathKeys,
      pathShape,
      { section: '4.1.3' },
    ),
    'api-conventions-path-hyphens': rule(
      '4.1.6',
      'required',
      'Words in paths are joined with a hyphen',
      pathKeys,
      pathShape,
      { section: '4.1.6' },
    ),
    'api-conventions-path-plural': rule(
      '4.1.4',
      'required',
      'Collections are plural nouns',
      pathKeys,
      pathShape,
      { section: '4.1.4' },
    ),
    'api-conventions-path-no-extension': rule(
      '4.1.2',
      'required',
      'Paths carry no implementation extension',
      pathKeys,
      pathShape,
      { section: '4.1.2' },
    ),
    'api-conventions-path-no-encoding': rule(
      '4.1.5',
      'required',
      'Paths have no characters that need encoding',
      pathKeys,
      pathShape,
      { section: '4.1.5' },
    ),
    'api-conventions-version-in-path': rule(
      '9.1',
      'recommended',
      'The major version is the first segment of the path',
      pathKeys,
      pathShape,
      { section: '9.1' },
    ),
    'api-conventions-paging-parameters': rule(
      '4.4',
      'required',
      'Paging query parameters are page and per_page, or limit and offset',
      [
        "$.paths[*].parameters[?(@.in == 'query')].name",
        `${operations}.parameters[?(@.in == 'query')].name`,
      ],
      pagingName,
    ),
    'api-conventions-list-envelope': rule(
      '2.7',
      'required',
      'A list is wrapped in an object, never a bare array',
      `$.paths[*].get.responses[?(@property.match(/^2/))].${json}`,
      listEnvelope,
    ),
    'api-conventions-paged-list-flag': rule(
      '2.8',
      'required',
      'A paged list says whether a next page exists',
      '$.paths[*]',
      pagedList,
      { strength: 'required' },
    ),
    'api-conventions-has-next': rule(
      '2.8',
      'pattern',
      'The next-page flag is a boolean named hasNext',
      '$.paths[*]',
      pagedList,
      { strength: 'pattern' },
    ),
    'api-conventions-error-body': rule(
      '7.1.5',
      'pattern',
      'An error body is {"errors":[{"message","code"}]}',
      `${operations}.responses[?(@property.match(/^(4|5|default)/i))].${json}`,
      errorBody,
    ),
    'api-conventions-media-type': rule(
      '4.6',
      'required',
      'JSON is application/json or a +json type',
      [`${operations}.responses[*].content`, `${operations}.requestBody.content`],
      mediaType,
    ),
    'api-conventions-oauth2': rule(
      '5.1',
      'required',
      'Authorization follows OAuth 2.0',
      '$',
      oauthScheme,
    ),
    'api-conventions-date-format': rule(
      '2.6',
      'required',
      'Dates and times are RFC 3339 text',
      `${operations}.responses[?(@property.match(/^2/))].${json}`,
      dateFormat,
    ),
  },
};
