/**
 * The issuer of the authorization server (RFC 8414 §2, RFC 9068 §2.2): fixed, fixed once known,
 * or, for development only, the origin each request names.
 */
import { isProduction } from '../internal/platform.ts';
import type { RequestContext } from '../kernel/context.ts';

const where = 'oauthServer()';

function checked(value: unknown): string {
  if (typeof value !== 'string' || !URL.canParse(value)) {
    throw new TypeError(
      `${where}: \`issuer\` must be an absolute URL such as "https://auth.example.com" (or a function that returns one); got ${typeof value === 'string' ? `"${value}"` : String(value)}.`,
    );
  }
  return value.replace(/\/$/, '');
}

/**
 * The `issuer` option compiled: the issuer of each request, and the start-up warning it calls for.
 */
interface CompiledIssuer {
  /** The issuer of a request. */
  readonly issuerOf: (ctx: RequestContext) => string;
  /** What the service's logger is told at set-up, if anything. */
  readonly warning: string | undefined;
}

/**
 * The issuer of each request, compiled from the `issuer` option: a string is checked now; a
 * function is asked until it gives a URL, which is then kept (a server on port 0 knows its origin
 * only once it listens); without one, the request's own origin, with a warning under
 * NODE_ENV=production, since tokens, metadata and revocation then follow whatever `Host` a
 * client sends (a token revoked through another host name is not found, and stays valid).
 */
export function compileIssuer(issuer: unknown): CompiledIssuer {
  if (typeof issuer === 'string') {
    const fixed = checked(issuer);
    return { issuerOf: () => fixed, warning: undefined };
  }
  if (typeof issuer === 'function') {
    let fixed: string | undefined;
    const issuerOf = () => {
      fixed ??= checked((issuer as () => unknown)());
      return fixed;
    };
    return { issuerOf, warning: undefined };
  }
  if (issuer !== undefined) checked(issuer);
  return {
    issuerOf: (ctx) => `${ctx.scheme}://${ctx.host ?? 'localhost'}`,
    warning: isProduction()
      ? `${where}: no \`issuer\`, so each request's Host names it: tokens, metadata and revocation then depend on the host name a client uses. Set \`issuer\` to the server's public URL.`
      : undefined,
  };
}
