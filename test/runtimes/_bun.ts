/** Bun: `Bun.serve` on a free port of 127.0.0.1, which it prints once it listens. */
import { handle } from './_app.ts';

declare const Bun: {
  serve(options: { port: number; hostname: string; fetch: typeof handle }): { port: number };
};

const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: handle });
console.log(`listening ${server.port}`);
