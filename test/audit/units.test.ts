/** The auditor's pure logic: RFC 3339 (spec 2.6), date-like values, sections, --only, options. */
import { describe, expect, it } from 'vitest';
import { findDates, isRfc3339 } from '../../src/audit/checks/dates.ts';
import { checkSecurityHeaders } from '../../src/audit/checks/security.ts';
import { resolveAuditOptions } from '../../src/audit/options.ts';
import { Findings, isSelected, sectionOf } from '../../src/audit/report.ts';

describe('RFC 3339 (spec 2.6)', () => {
  it.each([
    '2026-11-23T21:00:00Z',
    '2026-11-23t21:00:00.123+01:00',
    '2016-12-31T23:59:60Z',
    '2024-02-29',
    '2026-01-01T00:00:00-05:30',
  ])('accepts %s', (text) => expect(isRfc3339(text)).toBe(true));
  it.each([
    '11/23/2026',
    '2026-11-23 21:00:00Z',
    '2026-02-29',
    '2026-13-01',
    '2026-11-23T24:00:00Z',
    '2026-11-23T21:00Z',
    'Mon, 23 Nov 2026 21:00:00 GMT',
    '2026-11-23T21:00:00',
  ])('refuses %s', (text) => expect(isRfc3339(text)).toBe(false));

  it('finds dates by field name and by shape, and epoch numbers in date fields', () => {
    const found = findDates({
      createdAt: '2026-01-01T00:00:00Z',
      items: [{ when: '23 Nov 2026' }],
      updated_at: 1_700_000_000,
      born: 1775,
      title: 'x',
    });
    expect(found).toEqual([
      { where: 'createdAt', value: '2026-01-01T00:00:00Z', ok: true },
      { where: 'items[0].when', value: '23 Nov 2026', ok: false },
      { where: 'updated_at', value: 1_700_000_000, ok: false },
    ]);
  });
});

describe('sections and --only', () => {
  it.each([
    ['4.1.3', '4.1'],
    ['7.1.5', '7.1'],
    ['7.2', '7.2'],
    ['2.7', '2'],
    ['8.3', '8'],
    ['9.8', '9'],
    ['5.6', '5'],
  ])('groups %s under %s', (rule, section) => expect(sectionOf(rule)).toBe(section));

  it('selects a rule by itself or by a section above it, never by a sibling prefix', () => {
    expect(isSelected('4.1.3', ['4.1'])).toBe(true);
    expect(isSelected('4.1.3', ['4'])).toBe(true);
    expect(isSelected('4.10', ['4.1'])).toBe(false);
    expect(isSelected('7.1.5', [])).toBe(true);
  });
});

describe('audit options', () => {
  it('reads the base URL path as a path to audit and fills in the defaults', () => {
    const options = resolveAuditOptions({ baseUrl: 'http://127.0.0.1:1/v1/books/' });
    expect(options.paths).toEqual(['/v1/books']);
    expect(options.base.href).toBe('http://127.0.0.1:1/');
    expect([options.maxRequests, options.concurrency, options.timeoutMs]).toEqual([500, 4, 10_000]);
    expect([options.allowWrites, options.allowBurst]).toEqual([false, false]);
  });

  it.each([
    [
      { baseUrl: 'http://x', paths: ['/a'], maxRequests: 0 },
      /maxRequests must be a whole number from 1/,
    ],
    [{ baseUrl: 'http://x', paths: ['/a'], only: ['paths'] }, /only takes spec sections/],
    [
      { baseUrl: 'http://x', paths: ['/a'], origin: 'app.example.com' },
      /origin must be an http\(s\) URL/,
    ],
    [{ baseUrl: 'http://x', paths: ['/a'], headers: { 'bad name': 'x' } }, /header "bad name"/],
    [{ baseUrl: 'http://x', paths: ['/a'], retries: 2 }, /unknown option "retries"/],
  ])('refuses %j with a TypeError saying how to fix it', (options, message) => {
    expect(() => resolveAuditOptions(options as never)).toThrow(TypeError);
    expect(() => resolveAuditOptions(options as never)).toThrow(message);
  });
});

describe('HSTS over HTTPS (spec 4.8)', () => {
  // A response as the client records it, on an HTTPS base URL: the check reads only these.
  const audited = (hsts: string | undefined) => {
    const findings = new Findings({ only: [], skip: [], strict: false });
    const headers = new Headers({ 'x-content-type-options': 'nosniff' });
    if (hsts) headers.set('strict-transport-security', hsts);
    const get = { method: 'GET', request: 'GET /v1/books', status: 200, headers, body: '{}' };
    const options = resolveAuditOptions({
      baseUrl: 'https://api.example.com',
      paths: ['/v1/books'],
    });
    checkSecurityHeaders({
      ctx: { findings, options, client: undefined as never },
      path: '/v1/books',
      declared: undefined,
      documented: undefined,
      exchanges: [get],
      get,
      allow: undefined,
    });
    return findings.list.filter((f) => f.detail.includes('HSTS'));
  };

  it('passes a max-age above 0', () => {
    expect(audited('max-age=31536000')).toEqual([expect.objectContaining({ outcome: 'pass' })]);
  });
  // A pattern of spec 4.8's table ("Strict-Transport-Security | max-age=<seconds>"): a warning.
  it.each([undefined, 'max-age=0', 'includeSubDomains'])('warns on %s', (value) => {
    expect(audited(value)).toEqual([
      expect.objectContaining({ outcome: 'warn', strength: 'pattern' }),
    ]);
  });
});
