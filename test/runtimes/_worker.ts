/** A Cloudflare Worker as docs/adapters.md shows it: the service built at module scope. */
import { handle } from './_app.ts';

export default { fetch: (request: Request) => handle(request) };
