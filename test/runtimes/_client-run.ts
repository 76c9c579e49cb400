/**
 * What each runtime runs of api-conventions/client against the bookshelf (served by Node beside
 * it): a token from the token endpoint, every book through paginate, a 404 as an error with its
 * code, a 304 answered from the cache. Bundled unchanged for Bun, Deno and workerd.
 */
import { createClient, isApiResponseError } from 'api-conventions/client';

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

/** A fetch handler that runs the client against the `base` query parameter. */
export async function handleClient(request: Request): Promise<Response> {
  const base = new URL(request.url).searchParams.get('base') ?? '';
  try {
    return Response.json(await runClient(base));
  } catch (error) {
    return Response.json({ error: String(error) }, { status: 500 });
  }
}
