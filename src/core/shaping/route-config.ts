/** The route settings of the `payloads()` plugin (lists and resources), added by declaration merging. */
import type { ListOptions } from '../paging/list-options.ts';
import type { Resource } from './resource.ts';

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /**
     * The route answers a list: its paging styles, sizes, filters, `q` and `sort`, read and
     * checked before the handler (spec 4.4). Read by the `payloads()` plugin. @default not a list
     */
    list?: ListOptions;
    /**
     * The shape of the resource the route answers with (each item of a list): `fields`, `view`
     * and `links` applied in the transform phase (spec 2.10, 2.12). Made by `defineResource()`,
     * read by the `payloads()` plugin. @default the handler's value as it is
     */
    resource?: Resource;
  }
}
