/** Deno: serves the client run (see _client-run.ts) on a free port, which it prints. */
import { handleClient } from './_client-run.ts';

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen(addr: { port: number }): void },
    handler: typeof handleClient,
  ): unknown;
};

Deno.serve(
  { port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`listening ${port}`) },
  handleClient,
);
