/**
 * How a check point enters what it stands in front of: once the check let the request through,
 * the headers the checks gathered go on the host's response (the core's policy for the app's own
 * responses, `appHeaders`) and the app's code runs; a refusal is sent instead. The adapter writes
 * headers and responses natively; when to do which is decided here, for every host.
 */
import type { ResponseHeaders } from '../http/headers.ts';
import type { ApiResponse } from '../http/response.ts';
import type { Guarded } from '../kernel/plugin.ts';
import { andThen, isPromise, type Step } from '../kernel/steps.ts';
import { appHeaders } from './app-headers.ts';
import type { BoundHost } from './bind-host.ts';

/**
 * Enters what a check point stands in front of (`go`) once the check let the request through, or
 * hands the refusal to `refuse`: at once when the check was synchronous. With `failed`, for a host
 * that does not await what its handlers return, a later throw goes to it and nothing is returned.
 *
 * @category Host binding
 */
export function enterAfter<T>(
  checked: Step<ApiResponse | undefined>,
  go: () => T,
  refuse: (refusal: ApiResponse) => T,
  failed?: (error: unknown) => void,
): Step<T> | undefined {
  const out = andThen(checked, (refusal) => (refusal === undefined ? go() : refuse(refusal)));
  if (failed === undefined || !isPromise(out)) return out;
  out.then(undefined, failed);
  return undefined;
}

/** The native side of entering the app's code: the adapter's writers. */
export interface NativeEntry<Native> {
  /** Puts headers the conventions add to the app's response on the host's response. */
  headers(native: Native, headers: Readonly<ResponseHeaders>): void;
  /** Sends a refusal (a check point's, or a guard's) as the host's response. */
  refuse(native: Native, refusal: ApiResponse): unknown;
}

/**
 * {@link enterAfter} on a host: `go` runs with the headers the checks gathered on the host's
 * response; a refusal is sent.
 */
export function enterChecked<Native extends object>(
  host: BoundHost<Native>,
  io: NativeEntry<Native>,
  native: Native,
  checked: Step<ApiResponse | undefined>,
  go: () => unknown,
  failed?: (error: unknown) => void,
): unknown {
  const admit = () => {
    io.headers(native, appHeaders(host, native));
    return go();
  };
  return enterAfter<unknown>(checked, admit, (refusal) => io.refuse(native, refusal), failed);
}

/**
 * After a guard's step: `go` runs with the checked body, and the headers the checks gathered on
 * the host's response; a refusal is sent.
 */
export function enterGuarded<Native extends object>(
  host: BoundHost<Native>,
  io: NativeEntry<Native>,
  native: Native,
  guarded: Step<Guarded>,
  go: (body: unknown) => unknown,
  failed?: (error: unknown) => void,
): unknown {
  let body: unknown;
  const checked = andThen(guarded, (result) => {
    if (result.response === undefined) body = result.body;
    return result.response;
  });
  return enterChecked(host, io, native, checked, () => go(body), failed);
}
