/**
 * Field names as words for plain-English explanations: `CreatedOn` reads
 * "created on", `Address.Zip` reads "address zip".
 */

// Word boundaries: lower or digit before upper (`tN`, `2I`), lower before
// digit (`r4`), and the end of an acronym before a capitalised word (`HCEName`).
const BOUNDARIES: readonly (readonly [RegExp, string])[] = [
  [/([a-z0-9])([A-Z])/g, '$1 $2'],
  [/([a-z])([0-9])/g, '$1 $2'],
  [/([A-Z]+)([A-Z][a-z])/g, '$1 $2'],
];

/**
 * Splits a field path into lower-case words: PascalCase, camelCase and
 * snake_case segments are broken at their word boundaries and the segments
 * of a nested path are joined with spaces. Acronyms written in capitals
 * (`HCE`) stay in capitals, since "hce" would read as a word.
 *
 * @example
 * fieldWords('LastName');         // 'last name'
 * fieldWords('EligibleFor401k');  // 'eligible for 401k'
 * fieldWords('Address.ZipCode');  // 'address zip code'
 * fieldWords('HCE');              // 'HCE'
 */
export function fieldWords(name: string): string {
  const words: string[] = [];
  for (const segment of name.split('.')) {
    let spaced = segment.replace(/_+/g, ' ');
    for (const [pattern, replacement] of BOUNDARIES) spaced = spaced.replace(pattern, replacement);
    for (const word of spaced.split(' ')) {
      if (word === '') continue;
      words.push(/^[A-Z][A-Z0-9]+$/.test(word) && /[A-Z].*[A-Z]/.test(word) ? word : word.toLowerCase());
    }
  }
  return words.join(' ');
}
