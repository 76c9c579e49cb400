/** Runs one behaviour suite on every adapter, each on a real server on port 0. */
import { existsSync } from 'node:fs';
import type { Conventions } from 'api-conventions';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  type AdapterName,
  adapters,
  loadHost,
  type Running,
  type ServerSettings,
} from '../../examples/bookshelf/hosts/host.ts';
import { authorizationFor, forgetTokens, type TestUser } from './_auth.ts';
import { contractRecorder, documentOf } from './_contract.ts';

/** Every adapter of the bookshelf: the suite runs on each of them, never on fewer. */
export const hosts: readonly AdapterName[] = adapters;

/**
 * The hosts `describeMatrix` runs on: every one, unless `API_CONVENTIONS_MATRIX_HOSTS` names some
 * (comma-separated), as scripts/test-node.mjs does on Node 22 and 24, where what differs is
 * Node's own HTTP server, fetch and streams, not the frameworks above them. A name that is no
 * host fails the run rather than shrinking the matrix to nothing.
 */
const matrixHosts: readonly AdapterName[] = (() => {
  const named = process.env.API_CONVENTIONS_MATRIX_HOSTS;
  if (named === undefined || named === '') return hosts;
  const list = named.split(',').map((name) => name.trim());
  const unknown = list.filter((name) => !hosts.includes(name as AdapterName));
  if (unknown.length > 0) {
    throw new TypeError(
      `API_CONVENTIONS_MATRIX_HOSTS names ${unknown.join(', ')}, which no host file has: use some of ${hosts.join(', ')}.`,
    );
  }
  return list as AdapterName[];
})();

/** Whether the host file of `adapter` exists beside host.ts. */
const hasHostFile = (adapter: AdapterName) =>
  existsSync(new URL(`../../examples/bookshelf/hosts/${adapter}.ts`, import.meta.url));

/** A server under test. */
export interface Served {
  /** The adapter's name. */
  readonly adapter: AdapterName;
  /** The absolute URL of a path on the running server. */
  url(path: string): string;
  /**
   * `fetch` against the running server, with a path, as alice (the default test user) once the
   * bookshelf asks for tokens; an `authorization` header in `init` is sent as given instead.
   */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** `fetch` as a given test user; `anonymous` sends no credentials. */
  fetchAs(user: TestUser, path: string, init?: RequestInit): Promise<Response>;
  /** The `Authorization` value of a test user (undefined while the bookshelf needs none). */
  authorization(user?: Exclude<TestUser, 'anonymous'>): Promise<string | undefined>;
  /** The port it listens on. */
  readonly port: number;
}

/** How the servers of a suite differ from the bookshelf's hosts as they ship. */
export interface MatrixOptions {
  /** node:http settings (timeouts, `maxHeaderSize`) that replace the hosts' defaults. */
  server?: Partial<ServerSettings>;
  /** The adapters to run on, when the suite is about what only some hosts have (their own routes). */
  only?: readonly AdapterName[];
  /**
   * How a host serves the API, instead of the bookshelf's host files: `serveSeams` puts the seams
   * suite's native routes beside the table (_seams-hosts.ts).
   */
  serve?: (adapter: AdapterName, api: Conventions) => Promise<Running>;
  /**
   * For a service of the test's own, whose requests must be exactly the test's: `served.fetch`
   * sends what it is given (no sign-in as alice through the token endpoint) and the suite ends
   * without the OpenAPI contract check. @default false
   */
  plain?: boolean;
  /**
   * Runs the hosts' suites side by side instead of one after the other, each host's tests still
   * in order: for suites whose time is waiting (token lifetimes, rate windows) on servers that
   * share nothing. @default false
   */
  hostsAtOnce?: boolean;
}

/**
 * Every suite ends with one more test on each host: every response it received through
 * `served.fetch` fits the service's OpenAPI document (see _contract.ts).
 */
const contractTitle = 'every response received fits the OpenAPI document (OpenAPI 3.1 §4.8.16)';

/**
 * Declares `suite` once per adapter, each against its own fresh server built by `build`: the one
 * way a suite runs on every host. In the style of h3's `describeMatrix`.
 */
export function describeMatrix(
  title: string,
  build: (adapter: AdapterName) => Conventions,
  suite: (served: Served) => void,
  options: MatrixOptions = {},
): void {
  const plain = options.plain === true;
  for (const adapter of matrixHosts.filter((name) => options.only?.includes(name) ?? true)) {
    if (!hasHostFile(adapter)) {
      // A missing host must fail the run, not shrink the matrix without a word.
      describe(`${title} [${adapter}]`, () => {
        it('has a host file', () => {
          throw new Error(
            `examples/bookshelf/hosts/${adapter}.ts is missing: host.ts lists "${adapter}", so the suite must run on it.`,
          );
        });
      });
      continue;
    }
    describe(`${title} [${adapter}]`, { concurrent: options.hostsAtOnce === true }, () => {
      let running: Running | undefined;
      let api: Conventions | undefined;
      const recorder = contractRecorder();
      const served: Served = {
        adapter,
        get port() {
          if (!running) throw new Error('server not started');
          return running.port;
        },
        url: (path) => `http://127.0.0.1:${served.port}${path}`,
        fetch: (path, init) => served.fetchAs('alice', path, init),
        fetchAs: async (user, path, init) => {
          const headers = new Headers(init?.headers);
          if (!plain && user !== 'anonymous' && !headers.has('authorization')) {
            const value = await served.authorization(user);
            if (value !== undefined) headers.set('authorization', value);
          }
          const res = await fetch(served.url(path), { redirect: 'manual', ...init, headers });
          if (!plain) recorder.record(init?.method ?? 'GET', path, res);
          return res;
        },
        authorization: (user = 'alice') => authorizationFor(served.url(''), user),
      };
      beforeAll(async () => {
        api = build(adapter);
        running = options.serve
          ? await options.serve(adapter, api)
          : await (await loadHost(adapter))(api, {
              port: 0,
              host: '127.0.0.1',
              ...(options.server ? { server: options.server } : {}),
            });
      });
      afterAll(async () => {
        if (running === undefined) return;
        await running.close();
        forgetTokens(served.url(''));
      });
      if (options.hostsAtOnce === true) describe.sequential('in order', () => suite(served));
      else suite(served);
      if (plain) return;
      it(contractTitle, async () => {
        if (api === undefined || running === undefined) throw new Error('server not started');
        const document = documentOf(api);
        const problems = await recorder.problems(document);
        if (problems.length > 0) {
          throw new Error(
            `${problems.length} of ${recorder.count} responses do not fit the document:\n${problems.slice(0, 25).join('\n')}`,
          );
        }
      });
    });
  }
}
