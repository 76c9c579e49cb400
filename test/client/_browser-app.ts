/**
 * The page of a browser app that signs its user in to the bookshelf (authorization code with
 * PKCE, a public client: no secret anywhere in the page), then pages the books. Bundled by
 * test/client/browser-sign-in.test.ts; its outcome is left in `window.outcome`.
 */
import { createClient, isClientRefusedError } from 'api-conventions/client';

declare global {
  interface Window {
    /** What the page did, for the test to read. */
    outcome?: Record<string, unknown>;
  }
}

const config = JSON.parse(document.getElementById('config')?.textContent ?? '{}') as {
  api: string;
  redirectUri: string;
};

const client = createClient({
  baseUrl: config.api,
  oauth: { clientId: 'demo-browser', redirectUri: config.redirectUri },
});

const reasonOf = (p: Promise<unknown>) =>
  p.then(
    () => 'done',
    (e) => (isClientRefusedError(e) ? e.reason : String(e)),
  );

async function main(): Promise<Record<string, unknown> | undefined> {
  if (location.href.startsWith(config.redirectUri)) {
    const before = await reasonOf(client.get('/v1/me'));
    await client.completeSignIn(location.href);
    const ids: string[] = [];
    for await (const book of client.paginate<{ id: string }>('/v1/books', {
      style: 'cursor',
      size: 25,
      fields: ['id'],
    })) {
      ids.push(book.id);
    }
    const me = await client.get('/v1/me');
    // The access token lives 2 s: a call after 2.5 s is sent with a refreshed one.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const later = await client.get('/v1/me');
    return {
      before,
      books: ids.length,
      unique: new Set(ids).size,
      me,
      later,
      replay: await reasonOf(client.completeSignIn(location.href)),
      storage: Object.keys(sessionStorage),
    };
  }
  location.assign(await client.beginSignIn({ scope: 'books:read' }));
  return undefined;
}

main().then(
  (outcome) => {
    if (outcome) window.outcome = outcome;
  },
  (error: unknown) => {
    window.outcome = { error: String(error) };
  },
);
