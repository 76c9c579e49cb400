// The Nest app of nest.cjs and nest.mjs, made of the modules each loads in its own module system:
// a public route, a protected one, and what each answers with the built package's module.
exports.serveNest = async ({ common, core, apiConventions, nest, version }) => {
  const { Controller, Get, Module } = common;
  const { bearer, conventions, createTokenKeys } = apiConventions;
  const { ConventionsModule, Public } = nest;
  class Status {
    status() {
      return { ok: true };
    }
    secret() {
      return { ok: false };
    }
  }
  const method = (name, ...decorators) => {
    const descriptor = Object.getOwnPropertyDescriptor(Status.prototype, name);
    for (const decorate of decorators) decorate(Status.prototype, name, descriptor);
  };
  method('status', Get('status'), Public());
  method('secret', Get('secret'));
  Controller('v1')(Status);

  const quiet = { error() {}, warn() {} };
  const keys = await createTokenKeys({ logger: quiet });
  const issuer = 'https://api.example.com';
  const api = conventions({
    routes: {},
    logger: quiet,
    plugins: [bearer({ keys, issuer, audience: issuer })],
  });
  class AppModule {}
  Module({ imports: [ConventionsModule.forRoot(api)], controllers: [Status] })(AppModule);
  const app = await core.NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const status = await fetch(`${base}/v1/status`);
  const secret = await fetch(`${base}/v1/secret`);
  const missing = await fetch(`${base}/v1/nothing`);
  const result = {
    nest: version.split('.')[0],
    status: [status.status, await status.json()],
    secret: [secret.status, secret.headers.get('www-authenticate')],
    missing: [missing.status, (await missing.json()).errors[0].code],
  };
  await app.close();
  return result;
};
