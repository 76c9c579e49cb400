/** `POST /v1/oauth2/token` (spec 4.9, RFC 6749 §3.2, §4, §5, §6): client, grant, scope, tokens. */
import { ok, type Reply } from '../http/reply.ts';
import type { RequestContext } from '../kernel/context.ts';
import { type FailureCounter, type LoginAttempt, withAttempt } from './brute-force.ts';
import { authenticateClient } from './client-auth.ts';
import type { AuthorizationCodes } from './codes.ts';
import type { CompiledClient } from './compile-clients.ts';
import { oauthError } from './errors.ts';
import { formParams, type OAuthParams, required } from './form.ts';
import type { GrantType } from './options.ts';
import type { FamilyRef, RefreshTokens } from './refresh-tokens.ts';
import type { ResolvedOAuth } from './resolve.ts';
import { differs, intersect, narrowScope, parseScope } from './scopes.ts';

/** The parts of a server the token endpoint works with. */
export interface TokenState {
  readonly options: ResolvedOAuth;
  readonly refresh: RefreshTokens;
  readonly codes: AuthorizationCodes;
  readonly counter: FailureCounter | undefined;
}

/**
 * RFC 6749 §5.1 success body.
 *
 * @category OAuth server
 */
export interface TokenResponse {
  /** The access token. */
  access_token: string;
  /** Always `Bearer` (RFC 6750). */
  token_type: 'Bearer';
  /** Seconds until the access token expires (spec 4.9). */
  expires_in: number;
  /** A refresh token, when the grant gives one. */
  refresh_token?: string;
  /** The granted scope, when it differs from the one requested. */
  scope?: string;
}

/** The parameters whose names an error may repeat back: they are ours, not the client's. */
export const knownParams: ReadonlySet<string> = new Set([
  'grant_type',
  'username',
  'password',
  'scope',
  'refresh_token',
  'code',
  'redirect_uri',
  'code_verifier',
  'client_id',
  'client_secret',
  'token',
  'token_type_hint',
]);

const tokenGrants = new Set<string>([
  'authorization_code',
  'client_credentials',
  'password',
  'refresh_token',
]);
const publicGrants = new Set<string>(['authorization_code', 'refresh_token']);

/** RFC 6749 §5.1: tokens are never cached. */
export const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;

interface Grant {
  subject: string | undefined;
  scope: string[];
  wanted: ReadonlySet<string> | undefined;
  /**
   * The family the tokens belong to: one to continue (a refresh), one to open (a code's, or a new
   * one for a password grant), or none (client credentials).
   */
  family: { ref: FamilyRef; scope: string } | { open: string } | undefined;
  /** Whether a refresh token is issued. */
  refresh: boolean;
}

async function passwordGrant(
  s: TokenState,
  ctx: RequestContext,
  client: CompiledClient,
  p: OAuthParams,
  attempt: LoginAttempt | undefined,
): Promise<Grant> {
  const username = required(p, 'username');
  const password = required(p, 'password');
  const wanted = parseScope(p.get('scope'), s.options.scopes);
  // Counted before the password is checked: past the limit even the right one waits.
  await attempt?.user(username);
  const user = await s.options.verifyUser!(username, password, ctx);
  if (user === undefined) {
    attempt?.fail();
    // One answer for an unknown user and a wrong password (RFC 6749 §5.2 invalid_grant).
    throw oauthError('invalid_grant', 'The username or password is wrong.');
  }
  await attempt?.settle();
  const scope = narrowScope(wanted, intersect(client.scopes, user.scopes));
  const refresh = client.grants.has('refresh_token');
  const family = refresh ? { open: s.refresh.newFamily() } : undefined;
  return { subject: user.subject, scope, wanted, family, refresh };
}

function clientCredentialsGrant(s: TokenState, client: CompiledClient, p: OAuthParams): Grant {
  const wanted = parseScope(p.get('scope'), s.options.scopes);
  // spec 5.4: client credentials give access to public information only; RFC 6749 §4.4.3: no refresh token.
  const scope = narrowScope(wanted, intersect(client.scopes, s.options.publicScopes));
  return { subject: undefined, scope, wanted, family: undefined, refresh: false };
}

async function refreshGrant(
  s: TokenState,
  ctx: RequestContext,
  client: CompiledClient,
  p: OAuthParams,
): Promise<Grant> {
  const token = required(p, 'refresh_token');
  const wanted = parseScope(p.get('scope'), s.options.scopes);
  const { record, ref } = await s.refresh.use(
    token,
    client.id,
    (r) => {
      const held = new Set(r.sc.split(' '));
      // RFC 6749 §6: a narrower scope may be asked for, never a wider one.
      if (wanted && [...wanted].some((x) => !held.has(x))) {
        throw oauthError(
          'invalid_scope',
          'The scope asked for is wider than the refresh token holds.',
        );
      }
    },
    ctx,
  );
  const scope = wanted ? [...wanted].sort() : record.sc.split(' ');
  const family = { ref, scope: record.sc };
  return { subject: record.s, scope, wanted, family, refresh: true };
}

async function codeGrant(
  s: TokenState,
  ctx: RequestContext,
  client: CompiledClient,
  p: OAuthParams,
): Promise<Grant> {
  const code = required(p, 'code');
  const record = await s.codes.redeem(
    code,
    client.id,
    p.get('redirect_uri'),
    p.get('code_verifier'),
    (r) => s.refresh.revokeGrant(r.c, r.s, r.f, ctx),
    ctx,
  );
  const scope = record.sc.split(' ');
  const refresh = client.grants.has('refresh_token');
  return { subject: record.s, scope, wanted: new Set(scope), family: { open: record.f }, refresh };
}

/** The token endpoint's handler. */
export function tokenEndpoint(
  s: TokenState,
): (ctx: RequestContext) => Promise<Reply<TokenResponse>> {
  return async (ctx) => {
    const p = formParams(ctx.body, knownParams);
    const grantType = required(p, 'grant_type');
    const { client, grant } = await withAttempt(s.counter, ctx, async (attempt) => {
      const allowPublic = publicGrants.has(grantType);
      const { client } = await authenticateClient(ctx, p, s.options, attempt, allowPublic);
      // The password grant keeps the client's count running until the password is checked.
      if (grantType !== 'password') await attempt?.settle();
      if (!tokenGrants.has(grantType)) {
        throw oauthError(
          'unsupported_grant_type',
          'The grant_type is not one this server supports.',
        );
      }
      if (!client.grants.has(grantType as GrantType)) {
        throw oauthError('unauthorized_client', `This client may not use the ${grantType} grant.`);
      }
      let grant: Grant;
      if (grantType === 'password') grant = await passwordGrant(s, ctx, client, p, attempt);
      else if (grantType === 'client_credentials') grant = clientCredentialsGrant(s, client, p);
      else if (grantType === 'refresh_token') grant = await refreshGrant(s, ctx, client, p);
      else grant = await codeGrant(s, ctx, client, p);
      return { client, grant };
    });
    return ok(await issueTokens(s, ctx, client, grant), noStore);
  };
}

async function issueTokens(
  s: TokenState,
  ctx: RequestContext,
  client: CompiledClient,
  g: Grant,
): Promise<TokenResponse> {
  const scope = g.scope.join(' ');
  const issued = await s.options.tokens.issue({
    issuer: s.options.issuerOf(ctx),
    audience: s.options.audienceOf(ctx),
    ...(g.subject !== undefined ? { subject: g.subject } : {}),
    clientId: client.id,
    scope,
    ttlSeconds: s.options.accessTokenTtl,
  });
  const body: TokenResponse = {
    access_token: issued.token,
    token_type: 'Bearer',
    expires_in: issued.expiresIn,
  };
  if (g.family !== undefined) {
    // The scope the grant holds: a refresh keeps the original one (RFC 6749 §6).
    const held = 'ref' in g.family ? g.family.scope : scope;
    const grant = { c: client.id, sc: held, ...(g.subject !== undefined ? { s: g.subject } : {}) };
    const ref = 'ref' in g.family ? g.family.ref : await s.refresh.open(grant, g.family.open, ctx);
    // RFC 6749 §4.1.2, RFC 7009 §2.1: revoking the grant (a replayed code, a replayed or revoked
    // refresh token) revokes the access tokens issued from it too.
    if (!(await s.refresh.track(ref, issued.jti, issued.expiresAt, ctx))) {
      throw oauthError('invalid_grant', 'The grant was revoked while this request used it.');
    }
    if (g.refresh) body.refresh_token = await s.refresh.issue(ref, grant, ctx);
  }
  if (differs(g.wanted, g.scope)) body.scope = scope;
  return body;
}
