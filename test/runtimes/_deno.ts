/** Deno: `Deno.serve` on a free port of 127.0.0.1, which it prints once it listens. */
import { handle } from './_app.ts';

declare const Deno: {
  serve(
    options: { port: number; hostname: string; onListen(addr: { port: number }): void },
    handler: typeof handle,
  ): unknown;
};

Deno.serve(
  {
    port: 0,
    hostname: '127.0.0.1',
    onListen: ({ port }) => console.log(`listening ${port}`),
  },
  handle,
);
