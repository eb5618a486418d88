/**
 * The one error a list answers as busy: HTTP 503 with `Retry-After` and the
 * contract's busy envelope (docs/reference.md §"Envelopes"). The admission
 * queue throws it when a request cannot start or runs out of time; a data
 * source throws it when it cannot read now but may in a moment (a hot
 * standby cancelled the read twice, a pool is exhausted).
 */

/**
 * Why a request was answered "busy" (HTTP 503 with `Retry-After`): it could
 * not start within its wait, its class's queue was full, its deadline passed
 * while it ran, or its data source cannot read now but may in a moment. The
 * list handler maps it to the busy envelope; one thrown with a `cause` (a
 * source giving up on an error of its own) is also reported to `onError`,
 * while a refusal under load is not a fault and is not reported.
 *
 * @example
 * throw new BusyError('the database cancelled the read twice', 1, { cause: databaseError });
 */
export class BusyError extends Error {
  constructor(
    message: string,
    /** Whole seconds a client should wait before trying again (at least 1). */
    readonly retryAfterSeconds: number,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BusyError';
  }
}
