/**
 * The `x-api-*` headers of a request as the list kit should read them.
 * HTTP stacks hand header values over as Latin-1 text (Node's parser, and
 * fetch `Headers`, whose values are byte strings), so a filter such as
 * `FirstName.Equal(Zoë)` sent as UTF-8 arrives garbled; and Node joins
 * repeated headers with ", ", which would glue two `x-api-filter` lines into
 * one filter. Framework adapters and the reference server share this.
 */
import type { HeaderInput } from './params.js';
import { PARAMETER_HEADER_PREFIX } from '../wire/contract.js';

/**
 * The `x-api-*` headers, names lower-cased, each with every value it was sent
 * with, values that are valid UTF-8 decoded as such. Pass Node's
 * `req.headersDistinct` where there is one: it keeps repeated headers apart.
 *
 * @example
 * listHeaders({ 'x-api-filter': ["LastName.Equal('MÃ¼ller')"], accept: ['*'] }); // { 'x-api-filter': ["LastName.Equal('Müller')"] }
 */
export function listHeaders(headers: HeaderInput | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  if (headers === undefined || headers === null) return out;
  const add = (name: string, values: readonly string[]): void => {
    const key = name.toLowerCase();
    if (!key.startsWith(PARAMETER_HEADER_PREFIX)) return;
    (out[key] ??= []).push(...values.map(utf8Text));
  };
  if (typeof Headers !== 'undefined' && headers instanceof Headers) {
    headers.forEach((value, name) => add(name, [value]));
    return out;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  for (const name of Object.keys(record)) {
    const v = record[name];
    if (typeof v === 'string') add(name, [v]);
    else if (Array.isArray(v))
      add(
        name,
        v.filter((x): x is string => typeof x === 'string'),
      );
  }
  return out;
}

/**
 * A header value read as Latin-1, decoded as UTF-8 when its bytes are valid
 * UTF-8; otherwise (plain ASCII, real Latin-1, or text already decoded) as is.
 *
 * @example
 * utf8Text('ZoÃ«'); // 'Zoë'
 */
export function utf8Text(text: string): string {
  if (!/[\x80-\xff]/.test(text) || /[^\x00-\xff]/.test(text)) return text;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8: keep the Latin-1 reading.
    return text;
  }
}
