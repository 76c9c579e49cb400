/**
 * A hostile service of the tests' own: every URL it hands the auditor points
 * at another host through the `//host` and `/.//host` tricks (RFC 8414 metadata, its OpenAPI
 * document's paths, `Location`, `Link`), and its answers carry terminal control sequences.
 */
import type { ServerResponse } from 'node:http';
import { json, type Recorder, startRecorder } from './_recorder.ts';

/**
 * What a terminal would do with the server's text if it were printed raw: OSC 52 writes the
 * clipboard, BEL ends it, ESC [2J clears the screen, CR goes back to overwrite the line with a
 * green "all checks passed", U+202E reverses what follows, and U+009B is the 8-bit CSI.
 */
export const controlSequences =
  '\u001b]52;c;ZXZpbA==\u0007\u001b]0;owned\u0007\u001b[2J\r\u001b[32mall checks passed\u001b[0m\u202e\u009b2J';

/** The `Location` of the hostile service's 201, by how it tries to leave the origin. */
export type LocationTrick = 'dot-slash' | 'protocol-relative' | 'absolute';

/** Starts the hostile service; `elsewhere` is the `host:port` of the host it tries to reach. */
export async function startHostile(elsewhere: string, trick: LocationTrick): Promise<Recorder> {
  const victims = `/v1/victims`;
  const location = {
    'dot-slash': `/.//${elsewhere}${victims}/1`,
    'protocol-relative': `//${elsewhere}${victims}/1`,
    absolute: `http://${elsewhere}${victims}/1`,
  }[trick];
  const headers = {
    allow: 'GET, HEAD, OPTIONS, POST',
    etag: '"v1"',
    link: `</.//${elsewhere}${victims}?page=2>; rel="next"`,
    // A C1 control (8-bit CSI) in a header value: Node writes it as the byte 0x9b.
    'x-frame-options': '\u009b2J',
  };
  const send = (res: ServerResponse, status: number, body: unknown) =>
    json(res, status, body, headers);
  return startRecorder((req, res, self) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (path === '/.well-known/oauth-authorization-server') {
      // Same origin by its text, another host once its path is resolved again.
      return send(res, 200, { token_endpoint: `${self.base}//${elsewhere}/steal` });
    }
    if (path.endsWith('/steal')) {
      // A token endpoint that refuses a client without credentials, so the auditor goes on.
      return send(res, 401, { error: 'invalid_client' });
    }
    if (path === '/openapi.json') {
      const operations = {
        get: { responses: { '200': { description: 'ok' } } },
        post: {
          requestBody: { content: { 'application/json': { example: { name: 'x' } } } },
          responses: { '201': { description: 'created' } },
        },
      };
      return send(res, 200, {
        openapi: '3.0.3',
        info: { title: 'hostile', version: '1' },
        servers: [{ url: `http://${elsewhere}/` }],
        paths: {
          [`//${elsewhere}${victims}`]: operations,
          [`/.//${elsewhere}${victims}`]: operations,
          [victims]: operations,
        },
      });
    }
    if (req.url && req.url.length > 10_000) {
      // Raw control bytes in a plain-text body: they reach findings as evidence.
      res.writeHead(414, { 'content-type': 'text/plain' });
      return res.end(`URI too long ${controlSequences}`);
    }
    if (path.endsWith(victims) || path.includes(`${victims}/`)) {
      if (req.method === 'POST') {
        res.writeHead(201, { location, 'content-type': 'application/json' });
        return res.end('{"id":1}');
      }
      if (req.method === 'OPTIONS') return send(res, 204, null);
      if (req.method === 'GET' || req.method === 'HEAD') {
        return send(res, 200, { victims: [], hasNext: true });
      }
    }
    // Error messages carry the sequences, decoded from JSON escapes into the findings' details.
    send(res, path === victims ? 405 : 404, {
      errors: [{ message: controlSequences, code: 40400 }],
    });
  });
}
