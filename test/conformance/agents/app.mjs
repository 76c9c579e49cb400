// The agents' app as an ES module app: every package it serves with is loaded with `import`, so
// only an agent that hooks ES modules (`--import` with OpenTelemetry's hook) sees them.
import app from './app.cjs';

app.start(async (id) => {
  const loaded = await import(id);
  // A CommonJS package's exports are its default; an ES module's are its named exports.
  return 'default' in loaded ? loaded.default : loaded;
});
