/**
 * Nothing leaves the audited origin: a hostile service of the tests' own hands
 * the auditor URLs that point at another host through `//host` and `/.//host` (RFC 8414 metadata,
 * its OpenAPI document's paths and servers, `--path`, `Location`, `Link`); that host receives no
 * request, and no credential. Its control sequences never reach the text output raw.
 */
import { audit, formatJson, formatText } from 'api-conventions/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/audit/cli.ts';
import { controlSequences, type LocationTrick, startHostile } from './_hostile.ts';
import { type Recorder, startRecorder } from './_recorder.ts';

let elsewhere: Recorder;
const secret = 'Bearer secret-for-the-audited-origin-only';
const client = { id: 'audit-client', secret: 'client-secret-for-the-audited-origin-only' };

beforeAll(async () => {
  elsewhere = await startRecorder((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
afterAll(() => elsewhere.close());

/** Every option that makes the auditor send more, on the hostile service. */
function hostileAudit(hostile: Recorder) {
  const host = new URL(elsewhere.base).host;
  return audit({
    baseUrl: hostile.base,
    paths: [`//${host}/v1/victims`, `/.//${host}/v1/victims`, '/v1/victims'],
    openapi: `${hostile.base}/openapi.json`,
    headers: { Authorization: secret },
    origin: 'https://app.example.com',
    client,
    allowWrites: true,
  });
}

// Raw C0 (but the newline that ends each line), DEL and C1 controls, and bidi overrides.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters looked for
const rawControl = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe.each<LocationTrick>(['dot-slash', 'protocol-relative', 'absolute'])(
  'a hostile service whose 201 Location is %s',
  (trick) => {
    let hostile: Recorder;
    beforeAll(async () => {
      hostile = await startHostile(new URL(elsewhere.base).host, trick);
    });
    afterAll(() => hostile.close());

    it('sends no request, and so no credential, to another host (RFC 3986 §5.2)', async () => {
      elsewhere.seen.length = 0;
      const report = await hostileAudit(hostile);
      expect(elsewhere.seen.map((s) => `${s.method} ${s.url}`)).toEqual([]);
      // The audit did run there: the create was asked on the audited origin, with the header.
      const posts = hostile.seen.filter(
        (s) => s.method === 'POST' && s.url.endsWith('/v1/victims'),
      );
      expect(posts.length).toBeGreaterThan(0);
      expect(hostile.seen.some((s) => s.headers.authorization === secret)).toBe(true);
      // The Location it could not follow is reported, not sent to.
      if (trick !== 'dot-slash') {
        expect(report.findings).toContainEqual(
          expect.objectContaining({ rule: '4.3', detail: expect.stringMatching(/^not sent: /) }),
        );
      }
    });

    it('asks for a token on the audited origin only, with the client credentials', async () => {
      hostile.seen.length = 0;
      elsewhere.seen.length = 0;
      await hostileAudit(hostile);
      const basic = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;
      const asked = hostile.seen.filter((s) => s.headers.authorization === basic);
      // The metadata's `//host/steal` is a path of the audited origin, where the secret may go.
      expect(asked.map((s) => `${s.method} ${s.url}`)).toEqual([
        `POST //${new URL(elsewhere.base).host}/steal`,
      ]);
      expect(elsewhere.seen).toEqual([]);
    });
  },
);

describe('control characters from the server', () => {
  let hostile: Recorder;
  beforeAll(async () => {
    hostile = await startHostile(new URL(elsewhere.base).host, 'dot-slash');
  });
  afterAll(() => hostile.close());

  it('reach the findings as the server sent them, and the text output only escaped (ECMA-48)', async () => {
    const report = await hostileAudit(hostile);
    const fromServer = report.findings.filter((f) =>
      `${f.detail} ${f.evidence ?? ''}`.includes('\u001b]52;'),
    );
    expect(fromServer.length).toBeGreaterThan(0);
    const text = formatText(report, { all: true, color: true });
    // Our own colours are the only escape sequences: SGR codes the formatter wrote.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the formatter's own SGR codes
    const withoutOwnColours = text.replace(/\u001b\[(?:0|1|2|31|32|33|35)m/g, '');
    expect(withoutOwnColours).not.toMatch(rawControl);
    expect(text).toContain('\\x1b]52;c;ZXZpbA==\\x07');
    expect(text).toContain('\\x9b2J');
    expect(text).toContain('\\u202e');
    // JSON keeps the values but escapes what JSON.stringify leaves raw (C1, bidi).
    const json = formatJson(report);
    expect(json).not.toMatch(rawControl);
    const parsed = JSON.parse(json) as { findings: { detail: string }[] };
    expect(parsed.findings.some((f) => f.detail.includes(controlSequences.slice(0, 20)))).toBe(
      true,
    );
  });

  it('never reach the command output raw, in any format', async () => {
    for (const format of ['text', 'json']) {
      let out = '';
      await main(['audit', hostile.base, '--path', '/v1/victims', '--format', format, '--all'], {
        out: (t) => (out += t),
        err: (t) => (out += t),
        isTTY: false,
        env: {},
      });
      expect(out, format).not.toMatch(rawControl);
      expect(out.length).toBeGreaterThan(0);
    }
  });
});
