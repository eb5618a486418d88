/**
 * API version selection (docs/reference.md §"Envelopes", Versioning): `api-version` and
 * `x-api-version` select the version. The `/api/public/...` family speaks
 * `1.0`. A request that sends neither header is served as the default
 * version, as ASP.NET API Versioning does with
 * `AssumeDefaultVersionWhenUnspecified`; one that sends any other value is
 * refused.
 */
import type { ListError } from './envelope.js';
import type { HeaderInput } from './params.js';
import { headerValues } from './params.js';
import { DEFAULT_API_VERSION, VERSION_HEADERS } from '../wire/contract.js';

/**
 * The `unsupported-version` error for the first version header that names a
 * version outside `supported`, or undefined when the request may proceed.
 *
 * @example
 * checkApiVersion({ 'api-version': '2.0' }, { address: 'http://localhost/api/public/clients/1/employees' });
 * // { kind: 'unsupported-version', address: 'http://localhost/…', version: '2.0' }
 */
export function checkApiVersion(
  headers: HeaderInput | undefined,
  options: { readonly address: string; readonly supported?: readonly string[] },
): ListError | undefined {
  const supported = options.supported ?? [DEFAULT_API_VERSION];
  for (const name of VERSION_HEADERS) {
    const values = headerValues(headers, name);
    if (values === undefined) continue;
    for (const raw of values) {
      // Node joins repeated headers with ", "; each part must be supported.
      for (const part of raw.split(',')) {
        const version = part.trim();
        if (!supported.includes(version)) return { kind: 'unsupported-version', address: options.address, version };
      }
    }
  }
  return undefined;
}
