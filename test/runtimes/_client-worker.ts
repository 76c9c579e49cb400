/** A Worker that runs the client (see _client-run.ts) on each request. */
import { handleClient } from './_client-run.ts';

export default { fetch: (request: Request) => handleClient(request) };
