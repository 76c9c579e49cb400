// Sentry's Node SDK with tracing, loaded with --import as its docs ask, sending nowhere.
import * as Sentry from '@sentry/node';

Sentry.init({ dsn: 'http://public@127.0.0.1:9/1', tracesSampleRate: 1 });
