/** Starts the bookshelf: `ADAPTER=node|… PORT=3000 HOST=127.0.0.1 npm run example`. */
import { createBookshelf } from './app.ts';
import { type AdapterName, adapters, loadHost } from './hosts/host.ts';

const adapter = (process.env.ADAPTER ?? 'node') as AdapterName;
if (!adapters.includes(adapter)) {
  console.error(`ADAPTER must be one of ${adapters.join(', ')}; got "${adapter}".`);
  process.exit(1);
}
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a whole number from 0 to 65535; got "${process.env.PORT}".`);
  process.exit(1);
}

const serve = await loadHost(adapter);
const running = await serve(createBookshelf(), { port, host });
console.log(`listening on http://${host}:${running.port} (${adapter})`);

const stop = () => {
  running.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
