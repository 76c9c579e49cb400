/** The bookshelf: every part of the reference service, composed once and served by every adapter. */
import {
  type Conventions,
  type ConventionsOptions,
  conventions,
  type Plugin,
  type RouteTable,
} from 'api-conventions';
import { bookRoutes, seedShelf } from './books.ts';
import { httpSemantics, httpSemanticsRoutes } from './http-semantics.ts';
import { bookImportRoutes } from './imports.ts';
import { type SecuritySettings, securityPlugins } from './security.ts';

/** Settings of one bookshelf instance; every field has a default. */
export interface BookshelfOptions {
  /** Where 5xx faults are reported. @default console.error */
  logger?: ConventionsOptions['logger'];
  /** HTTPS only, and origins CORS allows beside the contract's. @default HTTP allowed, one origin */
  security?: SecuritySettings;
}

/** Builds a bookshelf with its own freshly seeded data. */
export function createBookshelf(options: BookshelfOptions = {}): Conventions {
  // Each part of the service adds its routes and plugins here, one line each.
  const books = seedShelf();
  const routes: RouteTable = httpSemanticsRoutes({
    ...bookRoutes(books),
    ...bookImportRoutes(books),
  });
  const plugins: Plugin[] = [...securityPlugins(options.security), ...httpSemantics()];
  return conventions({
    routes,
    plugins,
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
