/**
 * The client's types from an OpenAPI document, for a service written in another language: the
 * `paths` that openapi-typescript generates become a route table whose routes carry their
 * operation. Paths stay as the document writes them (`/v1/books/{id}`), as openapi-fetch's
 * users write them. Types only: nothing here exists at run time.
 */
import type { Nothing, ParamsOf } from './route-types.ts';
import type { Select } from './selection-types.ts';

/**
 * The methods of an openapi-typescript path item that the client calls.
 *
 * @category Client
 */
export type OpenApiMethodKey = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * A route of a table read from OpenAPI types: its operation, as openapi-typescript writes it
 * (`parameters`, `requestBody`, `responses`).
 *
 * @category Client
 */
export interface OpenApiRoute<Op> {
  /** The operation, for the type checker only: such a table exists only as a type. */
  readonly '~operation': Op;
}

/**
 * The route table of a service described by an OpenAPI document: give it openapi-typescript's
 * `paths` (`createClient<OpenApiPaths<paths>>(…)`). Each path keeps its `{name}` template;
 * each operation becomes a route of its method.
 *
 * @category Client
 */
export type OpenApiPaths<Paths> = {
  [P in keyof Paths & string]: {
    [K in keyof Paths[P] & OpenApiMethodKey as [Exclude<Paths[P][K], undefined>] extends [never]
      ? never
      : Uppercase<K>]: OpenApiRoute<Exclude<Paths[P][K], undefined>>;
  };
};

/**
 * The query parameters an operation declares, without `fields` and `view`: a call sends those
 * through its own `fields` and `view` options.
 *
 * @category Client
 */
export type OpenApiQuery<Op> =
  Op extends Readonly<Record<'parameters', infer Parameters>>
    ? Parameters extends Partial<Readonly<Record<'query', infer Q>>>
      ? [NonNullable<Q>] extends [never]
        ? Nothing
        : Omit<NonNullable<Q>, 'fields' | 'view'>
      : Nothing
    : Nothing;

/**
 * Every query parameter an operation declares, `fields` and `view` included.
 *
 * @category Client
 */
export type OpenApiFullQuery<Op> =
  Op extends Readonly<Record<'parameters', infer Parameters>>
    ? Parameters extends Partial<Readonly<Record<'query', infer Q>>>
      ? NonNullable<Q>
      : never
    : never;

/**
 * The JSON of a request body or response: its `application/json` content, else that of its
 * first `…json` media type (`application/vnd.example+json`); `never` when it has no JSON.
 *
 * @category Client
 */
export type OpenApiJson<T> =
  T extends Readonly<Record<'content', infer C>>
    ? 'application/json' extends keyof C
      ? C['application/json']
      : { [K in keyof C]: K extends `${string}json` ? C[K] : never }[keyof C]
    : never;

/**
 * The body an operation takes: its request body's JSON; anything the client sends (a form, a
 * string) when it takes no JSON.
 *
 * @category Client
 */
export type OpenApiBody<Op> =
  Op extends Partial<Readonly<Record<'requestBody', infer B>>>
    ? [OpenApiJson<NonNullable<B>>] extends [never]
      ? unknown
      : OpenApiJson<NonNullable<B>>
    : unknown;

/**
 * Whether a call of an operation must send a body: openapi-typescript writes `requestBody:` for a
 * request body the document marks `required`, `requestBody?:` otherwise.
 *
 * @category Client
 */
export type OpenApiBodyRequired<Op> =
  Op extends Readonly<Record<'requestBody', unknown>> ? true : false;

/**
 * The path parameters of an operation, as the document types them (`parameters.path`: an
 * integer is a `number`); those the template `P` names when the operation declares none.
 *
 * @category Client
 */
export type OpenApiPathParams<Op, P extends string> =
  Op extends Readonly<Record<'parameters', infer Parameters>>
    ? Parameters extends Partial<Readonly<Record<'path', infer Path>>>
      ? [NonNullable<Path>] extends [never]
        ? ParamsOf<P>
        : { [K in keyof NonNullable<Path>]: NonNullable<Path>[K] }
      : ParamsOf<P>
    : ParamsOf<P>;

/**
 * The body of an operation's success (200, 201, 202 or 203) as JSON; `undefined` when it has
 * none (a 204).
 *
 * @category Client
 */
export type OpenApiResponse<Op> =
  Op extends Readonly<Record<'responses', infer R>>
    ? [OpenApiSuccessJson<R>] extends [never]
      ? undefined
      : OpenApiSuccessJson<R>
    : unknown;

/**
 * The JSON of the success responses of `R`.
 *
 * @category Client
 */
export type OpenApiSuccessJson<R> = {
  [S in keyof R]: S extends 200 | 201 | 202 | 203 ? OpenApiJson<R[S]> : never;
}[keyof R];

/**
 * Whether a body is a list envelope (spec 2.8): it says whether there is a next page.
 *
 * @category Client
 */
export type OpenApiIsList<B> = B extends Readonly<Record<'hasNext', unknown>> ? true : false;

/**
 * The item of a body: the elements of a list envelope's array, else the body itself.
 *
 * @category Client
 */
export type OpenApiItem<B> =
  OpenApiIsList<B> extends true
    ? { [K in keyof B]-?: B[K] extends readonly (infer E)[] ? E : never }[keyof B]
    : B;

/**
 * The members `fields` may select on an operation: those of its item, when it declares the
 * `fields` query parameter (spec 2.10); none otherwise.
 *
 * @category Client
 */
export type OpenApiFields<Op> = 'fields' extends keyof OpenApiFullQuery<Op>
  ? keyof NonNullable<OpenApiItem<OpenApiResponse<Op>>> & string
  : never;

/**
 * The views an operation offers: its `view` parameter's values; none when it declares none.
 *
 * @category Client
 */
export type OpenApiViews<Op> = 'view' extends keyof OpenApiFullQuery<Op>
  ? Extract<NonNullable<OpenApiFullQuery<Op>['view' & keyof OpenApiFullQuery<Op>]>, string>
  : never;

/**
 * The body a call of an operation resolves to: as the document declares it, or, with `fields`,
 * exactly the selected members of its item, each present.
 *
 * @category Client
 */
export type OpenApiResult<Op, F extends string> = [F] extends [never]
  ? OpenApiResponse<Op>
  : OpenApiSelected<OpenApiResponse<Op>, F>;

/**
 * A body with its items narrowed to the members `F`.
 *
 * @category Client
 */
export type OpenApiSelected<B, F extends string> =
  OpenApiIsList<B> extends true
    ? { [K in keyof B]: B[K] extends readonly (infer E)[] ? Select<E, F>[] : B[K] }
    : Select<B, F>;
