/** The bookshelf's test user, as the client's `oauth` option. */

/** alice through the demo client; the token endpoint relative, so a proxy in front sees every grant. */
export const alice = {
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  username: 'alice',
  password: 'wonderland',
  tokenUrl: '/v1/oauth2/token',
};
