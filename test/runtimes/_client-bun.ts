/** Bun: serves the client run (see _client-run.ts) on a free port, which it prints. */
import { handleClient } from './_client-run.ts';

declare const Bun: {
  serve(options: { port: number; hostname: string; fetch: typeof handleClient }): { port: number };
};

const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: handleClient });
console.log(`listening ${server.port}`);
