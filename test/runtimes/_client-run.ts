/**
 * What each runtime runs of api-conventions/client against the bookshelf (served by Node beside
 * it): a token from the token endpoint, every book through paginate, a 404 as an error with its
 * code, a 304 answered from the cache; and against a hostile service, what it refuses. Bundled
 * unchanged for Bun, Deno and workerd.
 */
import { createClient, isApiResponseError, isClientRefusedError } from 'api-conventions/client';

/** The outcome, as plain JSON. */
export async function runClient(baseUrl: string): Promise<Record<string, unknown>> {
  const client = createClient({
    baseUrl,
    oauth: {
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      username: 'alice',
      password: 'wonderland',
    },
  });
  const ids: string[] = [];
  for await (const book of client.paginate<{ id: string }>('/v1/books', {
    style: 'cursor',
    size: 25,
    fields: ['id'],
  })) {
    ids.push(book.id);
  }
  const missing = await client.get('/v1/books/:id', { params: { id: 'nope' } }).catch((e) => e);
  await client.get('/v1/books/:id', { params: { id: 'emma' } });
  const again = await client.raw.get<{ title: string }>('/v1/books/:id', {
    params: { id: 'emma' },
  });
  return {
    books: ids.length,
    unique: new Set(ids).size,
    missing: isApiResponseError(missing) ? [missing.status, missing.code] : String(missing),
    cached: [again.cached, again.body.title],
  };
}

/** Why each of the hostile service's tricks was refused (or what it got instead). */
export async function runHostile(hostile: string): Promise<Record<string, unknown>> {
  const secrets = { token: 'secret-token', headers: { 'x-api-key': 'secret-key' } };
  const client = createClient({ baseUrl: hostile, ...secrets });
  const why = (p: Promise<unknown>) =>
    p.then(
      () => 'followed',
      (e) => (isClientRefusedError(e) ? e.reason : String(e)),
    );
  const pageAll = async () => {
    for await (const _ of client.paginate('/v1/books')) {
      // the next page is the collector's
    }
  };
  const oauth = createClient({
    baseUrl: hostile,
    oauth: { clientId: 'demo', clientSecret: 'demo-secret', username: 'alice', password: 'pw' },
  });
  // One answer says the limit is spent until a reset 3,000 years away.
  const limited = createClient({ baseUrl: hostile });
  await limited.get('/v1/limited');
  return {
    link: await why(pageAll()),
    redirect: await why(client.get('/v1/away')),
    metadata: await why(oauth.get('/v1/me')),
    wait: await why(limited.get('/v1/limited')),
  };
}

/**
 * A fetch handler that runs the client against the `base` query parameter, or against the
 * hostile service at `hostile`.
 */
export async function handleClient(request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const base = query.get('base') ?? '';
  const hostile = query.get('hostile');
  try {
    return Response.json(hostile ? await runHostile(hostile) : await runClient(base));
  } catch (error) {
    return Response.json({ error: String(error) }, { status: 500 });
  }
}
