/** A certificate for the tests' own TLS servers: made on the spot, for localhost and 127.0.0.1. */
import { generate } from 'selfsigned';

/** A self-signed P-256 server certificate for `localhost` and `127.0.0.1`, and its key. */
export async function localCertificate(): Promise<{ cert: string; key: string }> {
  const made = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: made.cert, key: made.private };
}
