// The Node builds the tests run on (the devDependencies `node22` and `node24`) each declare a
// `node` bin, which npm links as node_modules/.bin/node: every npm script (vitest, tsc, tsup) would
// then run on that Node instead of the one that runs npm. Run after each install (`prepare`).
import { lstatSync, readlinkSync, rmSync } from 'node:fs';

const link = 'node_modules/.bin/node';
try {
  if (lstatSync(link).isSymbolicLink() && /node\d+\/bin\/node$/.test(readlinkSync(link))) {
    rmSync(link);
    console.log(`unlink-node-bins: removed ${link}, so npm scripts run on the Node that runs npm`);
  }
} catch {
  // No link: nothing to do.
}
