// A CommonJS Nest app (what `nest new --type cjs` makes, and most existing apps are) on the built
// package and the NestJS of the repository: NestJS 12 is ES modules only, which require() loads.
require('reflect-metadata');
const { serveNest } = require('./nest-app.cjs');

serveNest({
  common: require('@nestjs/common'),
  core: require('@nestjs/core'),
  apiConventions: require('api-conventions'),
  nest: require('api-conventions/nest'),
  version: require('@nestjs/core/package.json').version,
}).then((result) => console.log(JSON.stringify(result)));
