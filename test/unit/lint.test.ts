import { describe, expect, it } from 'vitest';
import {
  formatFindings,
  hasErrors,
  type LintFinding,
  type LintRoute,
  lintPath,
  lintRoutes,
} from '../../src/core/lint/index.ts';

/** The rule and fix of each finding: enough to compare a result with a table row. */
const brief = (findings: readonly LintFinding[]) =>
  findings.map(({ rule, fix }) => ({ rule, fix }));

/** Applies the first derivable fix until none is left. */
function applyFixes(pattern: string): string {
  for (let step = 0; step < 20; step++) {
    const next = lintPath(pattern).find((found) => found.fix !== undefined)?.fix;
    if (next === undefined) return pattern;
    pattern = next;
  }
  throw new Error(`fixes of ${pattern} do not converge`);
}

describe('lintPath', () => {
  it.each([
    '/v1/books',
    '/v1/books/:id',
    '/v1/book-imports',
    '/v1/me',
    '/v2/authors/:id',
    '/v1/authors/:authorId/books/:bookId',
    '/v1/books/:id/cover',
    '/v1/people/:id',
    '/v1/children/:id',
    '/v1/data/:id',
    '/v1/news/:id',
    '/v1/series/:id',
    '/v1/metadata/:key',
    '/v1/staff/:id',
  ])('accepts %s, which follows every path rule (spec 4.1)', (pattern) => {
    expect(lintPath(pattern)).toEqual([]);
  });

  it.each([
    ['/v1/userProfiles', '/v1/user-profiles'],
    ['/v1/XMLHttpRequests', '/v1/xml-http-requests'],
    ['/V1/books', '/v1/books'],
    ['/v1/Books/:id', '/v1/books/:id'],
  ])('flags upper-case letters in %s (spec 4.1.3)', (pattern, fix) => {
    expect(lintPath(pattern)).toEqual([
      {
        rule: 'lower-case',
        severity: 'error',
        section: '4.1.3',
        path: pattern,
        message: expect.any(String),
        fix,
      },
    ]);
  });

  it.each(['/v1/books/:bookId', '/v1/books/:book_id', '/v1/files/*filePath'])(
    'leaves parameter names such as %s out of the case and hyphen rules (spec 4.1.3, 4.1.6)',
    (pattern) => {
      expect(brief(lintPath(pattern)).map(({ rule }) => rule)).not.toContain('lower-case');
      expect(brief(lintPath(pattern)).map(({ rule }) => rule)).not.toContain('hyphen-words');
    },
  );

  it('does not count percent-encoding hex as upper-case letters (spec 4.1.3)', () => {
    expect(brief(lintPath('/v1/a%2Fb'))).toEqual([{ rule: 'no-encoding', fix: undefined }]);
  });

  it.each([
    ['/v1/user_profiles', '/v1/user-profiles'],
    ['/v1/user.profiles', '/v1/user-profiles'],
    ['/v1/books~archive', '/v1/books-archive'],
    ['/v1/a\\+b', '/v1/a-b'],
    ['/v1/_drafts', '/v1/drafts'],
    ['/v1/user__profiles/:id', '/v1/user-profiles/:id'],
  ])('flags words in %s joined without a hyphen (spec 4.1.6)', (pattern, fix) => {
    expect(lintPath(pattern)).toEqual([
      {
        rule: 'hyphen-words',
        severity: 'warning',
        section: '4.1.6',
        path: pattern,
        message: expect.any(String),
        fix,
      },
    ]);
  });

  it.each([
    ['/v1/books.php', '/v1/books'],
    ['/v1/books.jsp', '/v1/books'],
    ['/v1/books/:id.aspx', '/v1/books/:id'],
    ['/v1/report.cgi', '/v1/report'],
    ['/v1/index.php/books', '/v1/books'],
    ['/v1/cgi-bin/books', '/v1/books'],
  ])('flags the script name or extension in %s (spec 4.1.2)', (pattern, fix) => {
    expect(lintPath(pattern)).toEqual([
      {
        rule: 'no-extension',
        severity: 'warning',
        section: '4.1.2',
        path: pattern,
        message: expect.any(String),
        fix,
      },
    ]);
  });

  it.each(['/v1/books.json', '/v1/books/:id.xml'])(
    'accepts the format suffix in %s (spec 4.5)',
    (pattern) => {
      expect(lintPath(pattern)).toEqual([]);
    },
  );

  it.each([
    ['/v1/my books', '/v1/my-books'],
    ['/v1/%20drafts', '/v1/drafts'],
    ['/v1/café', '/v1/cafe'],
    ['/v1/books@home', undefined],
    ['/v1/日本', undefined],
  ])('flags characters that need encoding in %s (spec 4.1.5)', (pattern, fix) => {
    expect(brief(lintPath(pattern))).toEqual([{ rule: 'no-encoding', fix }]);
    expect(lintPath(pattern)[0]?.section).toBe('4.1.5');
  });

  it.each([
    ['/books', '/v1/books', '9.1'],
    ['/', '/v1', '9.1'],
    ['/api/v1/books', undefined, '9.1'],
    // `/api` is a base path: the route is the versioned path under it, never `/v1/api/books`.
    ['/api/books', '/v1/books', '9.1'],
    ['/api/books/:id', '/v1/books/:id', '9.1'],
    ['/v1.2/books', '/v1/books', '9.4'],
  ])('flags %s for lacking a major version first segment (spec 9.1)', (pattern, fix, section) => {
    expect(lintPath(pattern)).toEqual([
      {
        rule: 'version-prefix',
        severity: 'warning',
        section,
        path: pattern,
        message: expect.any(String),
        fix,
      },
    ]);
  });

  it('skips the version rule when requireVersion is false (spec 9.2)', () => {
    expect(lintPath('/books/:id', { requireVersion: false })).toEqual([]);
  });

  it.each([
    ['/v1/book/:id', '/v1/books/:id'],
    ['/v1/category/:id', '/v1/categories/:id'],
    ['/v1/key/:id', '/v1/keys/:id'],
    ['/v1/box/:id', '/v1/boxes/:id'],
    ['/v1/branch/:id', '/v1/branches/:id'],
    ['/v1/person/:id', '/v1/people/:id'],
    ['/v1/book-import/:id', '/v1/book-imports/:id'],
    ['/v1/authors/:authorId/book/:bookId', '/v1/authors/:authorId/books/:bookId'],
    ['/v1/book{/:id}', '/v1/books{/:id}'],
  ])('flags the singular collection in %s (spec 4.1.4)', (pattern, fix) => {
    expect(lintPath(pattern)[0]).toEqual({
      rule: 'plural-collection',
      severity: 'warning',
      section: '4.1.4',
      path: pattern,
      message: expect.any(String),
      fix,
    });
  });

  it('never treats the version segment as a collection (spec 4.1.4, 9.1)', () => {
    expect(lintPath('/v1/:tenant/books')).toEqual([]);
  });

  it('accepts words listed in pluralExceptions, in any case (spec 4.1.4)', () => {
    expect(brief(lintPath('/v1/inventory/:id'))).toEqual([
      { rule: 'plural-collection', fix: '/v1/inventories/:id' },
    ]);
    expect(lintPath('/v1/inventory/:id', { pluralExceptions: ['Inventory'] })).toEqual([]);
  });

  it.each([
    ['/v1/books{/:id}', '/v1/books'],
    ['/v1/books/{:id}', '/v1/books'],
    ['/v1/books{.:format}', '/v1/books'],
  ])('flags the optional part of %s as belonging in the query (spec 4.1.8)', (pattern, fix) => {
    expect(lintPath(pattern)).toEqual([
      {
        rule: 'required-in-path',
        severity: 'warning',
        section: '4.1.8',
        path: pattern,
        message: expect.any(String),
        fix,
      },
    ]);
  });

  it.each([
    ['/v1/books/:id/:other', ['two parameters in a row']],
    ['/v1/files/*path', ['matches any number of segments']],
    ['/v1/shelves/:id/*path', ['two parameters in a row', 'matches any number of segments']],
  ])('flags the non-uniform structure of %s (spec 4.1.7)', (pattern, messages) => {
    const findings = lintPath(pattern);
    expect(findings.map(({ rule, section }) => `${rule} ${section}`)).toEqual(
      messages.map(() => 'uniform-structure 4.1.7'),
    );
    findings.forEach((found, i) => {
      expect(found.message).toContain(messages[i]);
      expect(found.fix).toBeUndefined();
    });
  });

  it.each([
    ['/v1/books(x)', undefined],
    ['/v1/books/:id?', undefined],
    ['/v1/books/:', undefined],
    ['/v1/{books', undefined],
    ['v1/books', '/v1/books'],
  ])('reports %s as an invalid pattern without throwing (spec 4.1)', (pattern, fix) => {
    expect(lintPath(pattern)).toEqual([
      {
        rule: 'invalid-pattern',
        severity: 'error',
        section: '4.1',
        path: pattern,
        message: expect.any(String),
        fix,
      },
    ]);
  });

  it('reports findings in rule order (spec 4.1)', () => {
    expect(lintPath('/User_Profile.php/:id').map(({ rule }) => rule)).toEqual([
      'lower-case',
      'plural-collection',
      'hyphen-words',
      'no-extension',
      'version-prefix',
    ]);
  });

  it.each([
    ['/v1/User_Profile/:id', '/v1/user-profiles/:id'],
    ['/Books.php', '/v1/books'],
    ['/v1/my Book/:id', '/v1/my-books/:id'],
  ])(
    'reaches a clean pattern from %s by applying fixes one after another (spec 4.1)',
    (pattern, clean) => {
      expect(applyFixes(pattern)).toBe(clean);
      expect(lintPath(clean)).toEqual([]);
    },
  );
});

describe('allow list', () => {
  it.each([
    '/v1/oauth2/token',
    '/v1/oauth2/revoke',
    '/v1/oauth2/introspect',
    '/v1/oauth2/authorize',
    '/.well-known/openid-configuration',
    '/.well-known/jwks.json',
  ])('exempts %s by default (spec 4.9)', (pattern) => {
    expect(lintPath(pattern)).toEqual([]);
  });

  it('exempts the spec token endpoint even as a POST target (spec 4.9)', () => {
    const token: LintRoute = { method: 'POST', path: '/v1/oauth2/token' };
    expect(lintRoutes([token])).toEqual([]);
    expect(brief(lintRoutes([token], { allow: [] }))).toEqual([
      { rule: 'plural-collection', fix: '/v1/oauth2/tokens' },
    ]);
  });

  it.each([
    ['/internal/Debug_Info', []],
    ['/internal/', []],
    ['/internal', ['version-prefix']],
    ['/legacy/Index.php', []],
    ['/legacy/Index.php/x', ['lower-case', 'no-extension', 'version-prefix']],
    ['/.well-known/jwks.json', ['version-prefix']],
  ])('matches %s against exact entries and entries ending in * (spec 4.1)', (pattern, rules) => {
    const options = { allow: ['/internal/*', '/legacy/Index.php'] };
    expect(lintPath(pattern, options).map(({ rule }) => rule)).toEqual(rules);
  });
});

describe('lintRoutes', () => {
  const clean: (LintRoute | string)[] = [
    { method: 'GET', path: '/v1/books' },
    { method: 'POST', path: '/v1/books' },
    { method: 'GET', path: '/v1/books/:id' },
    { method: 'PUT', path: '/v1/books/:id' },
    { method: 'DELETE', path: '/v1/books/:id' },
    { method: 'POST', path: '/v1/book-imports' },
    { method: 'GET', path: '/v1/me' },
    { method: 'GET', path: '/v2/authors/:id' },
    { method: 'POST', path: '/v1/oauth2/token' },
    '/v1/books/:id/reviews',
  ];

  it('accepts a realistic route table that follows the path rules (spec 4.1)', () => {
    expect(lintRoutes(clean)).toEqual([]);
  });

  it('lints a path served by several methods once (spec 4.1)', () => {
    const routes = ['GET', 'PUT', 'DELETE'].map((method) => ({ method, path: '/v1/book/:id' }));
    expect(brief(lintRoutes(routes))).toEqual([
      { rule: 'plural-collection', fix: '/v1/books/:id' },
    ]);
  });

  it.each([
    [[{ method: 'POST', path: '/v1/book-import' }], '/v1/book-imports'],
    [[{ method: 'post', path: '/v1/inbox' }], '/v1/inboxes'],
    [['/v1/inbox', { method: 'POST', path: '/v1/inbox' }], '/v1/inboxes'],
  ])('treats the last segment of a POST route as a collection (spec 4.1.4, 4.2)', (routes, fix) => {
    expect(brief(lintRoutes(routes))).toEqual([{ rule: 'plural-collection', fix }]);
  });

  it.each([
    [['/v1/book-import'], []],
    [[{ method: 'GET', path: '/v1/me' }], []],
  ])('accepts singleton leaves that are not POST targets (spec 4.1.4)', (routes, expected) => {
    expect(lintRoutes(routes)).toEqual(expected);
  });

  it('flags a collection whose item parameter is named differently on a later route (spec 4.1.7)', () => {
    const findings = lintRoutes([
      '/v1/books/:id',
      { method: 'GET', path: '/v1/books/:bookId/reviews' },
    ]);
    expect(findings).toEqual([
      {
        rule: 'uniform-structure',
        severity: 'warning',
        section: '4.1.7',
        path: '/v1/books/:bookId/reviews',
        message: expect.stringContaining('`books/:bookId` → `:id`'),
        fix: '/v1/books/:id/reviews',
      },
    ]);
  });

  it.each([
    [['/v1/books/:id', '/v1/authors/:authorId/books/:bookId'], []],
    [
      ['/v1/books/:bookId', '/v1/books/:id'],
      [{ rule: 'uniform-structure', fix: '/v1/books/:bookId' }],
    ],
    [
      ['/v1/books/:id', '/v1/books/:bookId/reviews/:id'],
      [{ rule: 'uniform-structure', fix: undefined }],
    ],
  ])('compares item parameter names per collection path (spec 4.1.7)', (routes, expected) => {
    expect(brief(lintRoutes(routes))).toEqual(expected);
  });

  it('does not let an allowed pattern set the parameter name of a collection (spec 4.1.7)', () => {
    expect(
      lintRoutes(['/v1/books/:bookId', '/v1/books/:id'], { allow: ['/v1/books/:bookId'] }),
    ).toEqual([]);
  });

  it('reports findings in input order, then rule order, and keeps going past invalid patterns (spec 4.1)', () => {
    const findings = lintRoutes(['/v1/User_Profile/:id', '/v1/books(', '/books']);
    expect(findings.map(({ path, rule }) => `${path} ${rule}`)).toEqual([
      '/v1/User_Profile/:id lower-case',
      '/v1/User_Profile/:id plural-collection',
      '/v1/User_Profile/:id hyphen-words',
      '/v1/books( invalid-pattern',
      '/books version-prefix',
    ]);
  });
});

describe('option validation', () => {
  it.each([
    [{ alow: [] }, /unknown option `alow`\. Did you mean `allow`\?/],
    [{ strict: true }, /unknown option `strict`\. Known options: allow/],
    [{ requireVersions: false }, /Did you mean `requireVersion`\?/],
    [{ allow: '/v1/x' }, /`allow` must be an array of strings/],
    [{ allow: ['v1/x'] }, /starting with '\/'/],
    [{ requireVersion: 'no' }, /`requireVersion` must be true or false/],
    [{ pluralExceptions: [1] }, /`pluralExceptions` must be an array of strings/],
    [null, /options must be an object/],
  ])('throws a TypeError that says how to fix the lint options %j', (options, message) => {
    expect(() => lintPath('/v1/books', options as never)).toThrow(TypeError);
    expect(() => lintPath('/v1/books', options as never)).toThrow(message);
    expect(() => lintRoutes([], options as never)).toThrow(message);
  });

  it.each([
    [() => lintPath('/v1/books', { alow: [] } as never), 'lintPath'],
    [() => lintPath('/v1/books', null as never), 'lintPath'],
    [() => lintPath(42 as never), 'lintPath'],
    [() => lintRoutes([], { requireVersion: 'no' } as never), 'lintRoutes'],
    [() => lintRoutes('/v1/books' as never), 'lintRoutes'],
  ])(
    'names the function once at the start of a misuse TypeError (no `lintPath: lintPath:`)',
    (call, name) => {
      let message = '';
      try {
        call();
      } catch (error) {
        message = (error as TypeError).message;
      }
      expect(message.startsWith(`${name}: `)).toBe(true);
      expect(message.split(`${name}:`)).toHaveLength(2);
    },
  );

  it.each([
    [() => lintPath(42 as never), /lintPath: the pattern must be a string/],
    [() => lintRoutes('/v1/books' as never), /lintRoutes: routes must be an array/],
    [() => lintRoutes([{ path: '/v1/books' }] as never), /lintRoutes: routes\[0\] must be/],
  ])('throws a TypeError that says how to fix a misused argument', (call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });
});

describe('formatFindings', () => {
  const base = { path: '/v1/userProfiles', message: 'upper-case letters' } as const;

  it.each([
    [[], ''],
    [
      [
        {
          ...base,
          rule: 'lower-case',
          severity: 'error',
          section: '4.1.3',
          fix: '/v1/user-profiles',
        },
      ],
      'error 4.1.3 lower-case /v1/userProfiles: upper-case letters. Fix: declare it as /v1/user-profiles',
    ],
    [
      [
        { ...base, rule: 'lower-case', severity: 'error', section: '4.1.3' },
        {
          ...base,
          rule: 'version-prefix',
          severity: 'warning',
          section: '9.1',
          message: 'no version',
        },
      ],
      'error 4.1.3 lower-case /v1/userProfiles: upper-case letters.\n' +
        'warning 9.1 version-prefix /v1/userProfiles: no version.',
    ],
  ] satisfies [LintFinding[], string][])(
    'prints one line per finding, severity first (spec 4.1)',
    (findings, text) => {
      expect(formatFindings(findings)).toBe(text);
    },
  );

  it('regression: a line did not say how to fix the route; it now ends with the corrected pattern', () => {
    expect(formatFindings(lintPath('/v1/userProfiles'))).toMatch(
      /^error 4\.1\.3 lower-case \/v1\/userProfiles: .+\. Fix: declare it as \/v1\/user-profiles$/,
    );
  });

  it('keeps the spec section of every rule on its line (spec 4.1, 9.1)', () => {
    const lines = formatFindings(lintPath('/User_Profile.php/:id/')).split('\n');
    expect(lines.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'error 4.1.3 lower-case',
      'error 4.1 trailing-slash',
      'warning 4.1.4 plural-collection',
      'warning 4.1.6 hyphen-words',
      'warning 4.1.2 no-extension',
      'warning 9.1 version-prefix',
    ]);
  });

  it('says how to fix a finding that has no derivable fix (spec 4.1.7)', () => {
    const [line] = formatFindings(lintPath('/v1/books/:id/:other')).split('\n');
    expect(line).toMatch(/^warning 4\.1\.7 uniform-structure .+; name the collection between them/);
    expect(line).not.toContain('Fix:');
  });

  it('says how to write a pattern path-to-regexp cannot parse (spec 4.1)', () => {
    expect(formatFindings(lintPath('/v1/books/:id?'))).toMatch(
      /^error 4\.1 invalid-pattern \/v1\/books\/:id\?: .+; write it in path-to-regexp v8 syntax/,
    );
  });
});

describe('severity', () => {
  it('regression: an upper-case pattern was only a warning though no request can reach it (spec 4.1.3)', () => {
    expect(lintPath('/v1/Books').map(({ rule, severity }) => `${rule} ${severity}`)).toEqual([
      'lower-case error',
    ]);
    expect(hasErrors(lintPath('/v1/Books'))).toBe(true);
  });

  it.each([
    ['/v1/books/', '/v1/books'],
    ['/v1/books/:id/', '/v1/books/:id'],
    ['/v1/', '/v1'],
    ['/v1/books//', '/v1/books'],
  ])(
    'regression: %s passed the lint while its slash-less path got 404; it is an error fixed by dropping the slash (spec 4.1)',
    (pattern, fix) => {
      expect(lintPath(pattern)).toEqual([
        {
          rule: 'trailing-slash',
          severity: 'error',
          section: '4.1',
          path: pattern,
          message: expect.stringContaining('gets 404'),
          fix,
        },
      ]);
    },
  );

  it.each(['/', '/v1/books{/}'])('does not report %s as a trailing slash (spec 4.1)', (pattern) => {
    const rules = lintPath(pattern, { requireVersion: false }).map(({ rule }) => rule);
    expect(rules).not.toContain('trailing-slash');
  });

  it('reaches a clean pattern from an upper-case pattern with a trailing slash (spec 4.1)', () => {
    expect(applyFixes('/v1/Books/:id/')).toBe('/v1/books/:id');
  });

  it.each([
    ['/v1/my books', 'error'],
    ['/v1/café', 'error'],
    ['/v1/日本', 'error'],
    ['/v1/books@home', 'warning'],
    ['/v1/%20drafts', 'warning'],
  ] as const)(
    'makes %s an encoding %s by whether a request path can carry it unencoded (spec 4.1.5)',
    (pattern, severity) => {
      expect(lintPath(pattern).map((found) => `${found.rule} ${found.severity}`)).toEqual([
        `no-encoding ${severity}`,
      ]);
    },
  );

  it.each([
    ['/v1/book/:id', 'plural-collection'],
    ['/v1/user_profiles', 'hyphen-words'],
    ['/v1/books.php', 'no-extension'],
    ['/books', 'version-prefix'],
    ['/v1/books{/:id}', 'required-in-path'],
    ['/v1/files/*path', 'uniform-structure'],
  ])('reports the style rule broken by %s as a warning (spec 4.1)', (pattern, rule) => {
    const findings = lintPath(pattern);
    expect(findings.map((found) => `${found.rule} ${found.severity}`)).toEqual([`${rule} warning`]);
    expect(hasErrors(findings)).toBe(false);
  });

  it('hasErrors tells a route table with an unreachable route from one with style warnings only', () => {
    expect(hasErrors([])).toBe(false);
    expect(hasErrors(lintRoutes(['/v1/book/:id', '/books']))).toBe(false);
    expect(hasErrors(lintRoutes(['/v1/book/:id', '/v1/books/']))).toBe(true);
  });
});
