/**
 * The semantic conformance cases as written by hand: a name, a family, the
 * filter and sort texts, and for at least one case of every family the ids
 * worked out by hand from grammar/corpus/dataset/employees.json and
 * docs/semantics.md (`hand`). The expected ids of every case are computed
 * by generate.ts from the evaluator and the reference evaluator, which must
 * agree with each other and with `hand` where it is given.
 */

/** One semantic case before generation. */
export interface SemanticSpec {
  readonly name: string;
  readonly family: string;
  readonly filter?: string;
  readonly sort?: string;
  readonly caseSensitive?: boolean;
  /** Run with the list's soft-delete scope (RowStatus 3 hidden, a null RowStatus kept). */
  readonly deleted?: 'hide';
  /** The ids worked out by hand; generation fails when the evaluators disagree with them. */
  readonly hand?: readonly number[];
}

const G1 = [1, 6, 8, 10, 13, 14, 15, 17, 18, 19, 21, 23, 25, 27, 29];

/** Every semantic case, grouped by family. */
export const SEMANTIC_SPECS: readonly SemanticSpec[] = [
  // equality
  { family: 'equality', name: 'Equal on an integer', filter: 'Gender.Equal(1)', hand: G1 },
  { family: 'equality', name: 'Equal with a quoted integer', filter: "Gender.Equal('1')", hand: G1 },
  {
    family: 'equality',
    name: 'NotEqual leaves nulls out',
    filter: 'Gender.NotEqual(1)',
    hand: [2, 5, 7, 9, 11, 12, 16, 20, 24, 26, 28, 30],
  },
  { family: 'equality', name: 'Equal on a string folds case', filter: 'LastName.Equal(smith)', hand: [1, 2, 3, 24, 29] },
  { family: 'equality', name: 'Equal on a boolean true', filter: 'EePortal.Equal(true)' },
  { family: 'equality', name: 'Equal on a boolean false', filter: 'EePortal.Equal(False)', hand: [2, 5, 7, 9, 12, 14, 20, 23, 26, 28, 30] },
  { family: 'equality', name: 'NotEqual on a boolean leaves wrong-typed values out', filter: 'EePortal.NotEqual(true)' },
  { family: 'equality', name: 'Equal with a doubled quote', filter: "LastName.Equal('O''Brien')", hand: [18] },
  { family: 'equality', name: 'Equal the empty string', filter: "LastName.Equal('')", hand: [15] },
  { family: 'equality', name: 'Equal zero and minus zero', filter: 'Or(EmployeeNumber.Equal(0);EmployeeNumber.Equal(-0))', hand: [28] },
  { family: 'equality', name: 'Equal the largest safe integer', filter: 'EmployeeNumber.Equal(9007199254740991)', hand: [19] },
  { family: 'equality', name: 'Equal the smallest safe integer', filter: 'EmployeeNumber.Equal(-9007199254740991)', hand: [20] },
  { family: 'equality', name: 'Equal on the client', filter: 'ClientId.Equal(2)', hand: [29, 30] },
  // order
  {
    family: 'order',
    name: 'GreaterThan near the largest safe integer',
    filter: 'EmployeeNumber.GreaterThan(9007199254740990)',
    hand: [19],
  },
  { family: 'order', name: 'LessThan zero', filter: 'EmployeeNumber.LessThan(0)', hand: [20] },
  {
    family: 'order',
    name: 'LessThanOrEqual and GreaterThanOrEqual bound a range',
    filter: 'EmployeeNumber.GreaterThanOrEqual(1005);EmployeeNumber.LessThanOrEqual(1008)',
    hand: [5, 6, 7, 8],
  },
  {
    family: 'order',
    name: 'GreaterThanOrEqual on a datetime',
    filter: 'CreatedOn.GreaterThanOrEqual(2024-04-01)',
    hand: [19, 20, 21, 22, 23, 24, 25, 27, 28],
  },

  // text
  { family: 'text', name: 'StartsWith folds case', filter: 'LastName.StartsWith(sm)', hand: [1, 2, 3, 4, 20, 24, 29] },
  { family: 'text', name: 'StartsWith reads _ literally', filter: 'ClockNumber.StartsWith(C_)', hand: [1] },
  { family: 'text', name: 'Contains reads % literally', filter: "ClockNumber.Contains('%')", hand: [1, 18] },
  {
    family: 'text',
    name: 'Contains the empty string matches every non-null string',
    filter: "LastName.Contains('')",
    hand: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
  },
  { family: 'text', name: 'NotContains leaves nulls out', filter: 'LastName.NotContains(mit)' },
  { family: 'text', name: 'EndsWith', filter: 'LastName.EndsWith(S)', hand: [4, 5, 6, 25] },
  { family: 'text', name: 'NotStartsWith', filter: 'FirstName.NotStartsWith(z)' },
  { family: 'text', name: 'NotEndsWith', filter: 'LastName.NotEndsWith(h)' },
  { family: 'text', name: 'Contains an astral character', filter: "LastName.Contains('😀')", hand: [14] },
  { family: 'text', name: 'Contains keeps inner spaces', filter: "NickName.Contains('  pad')", hand: [28] },
  // null
  { family: 'null', name: 'IsNull: missing, null and wrong-typed', filter: 'Gender.IsNull()', hand: [3, 4, 22] },
  { family: 'null', name: 'IsNotNull', filter: 'Gender.IsNotNull()' },
  { family: 'null', name: 'IsNull on an unset optional string', filter: 'MiddleName.IsNull()' },
  { family: 'null', name: 'IsNull on integers beyond the safe range and fractions', filter: 'EmployeeNumber.IsNull()', hand: [21, 22] },
  { family: 'null', name: 'IsNull on impossible and non-text datetimes', filter: 'BirthOn.IsNull()', hand: [26, 27] },
  { family: 'null', name: 'IsNull on a text boolean and a number boolean', filter: 'EePortal.IsNull()', hand: [22, 27] },
  { family: 'null', name: 'IsNull on a string field holding a number', filter: 'LastName.IsNull()', hand: [16, 17] },
  {
    family: 'null',
    name: 'Or of IsNull and NotEqual',
    filter: 'Or(Gender.IsNull();Gender.NotEqual(1))',
    hand: [2, 3, 4, 5, 7, 9, 11, 12, 16, 20, 22, 24, 26, 28, 30],
  },
  // membership
  { family: 'membership', name: 'InArray on strings folds case', filter: 'LastName.InArray(SMITH,jones)', hand: [1, 2, 3, 5, 24, 29] },
  { family: 'membership', name: 'NotInArray leaves nulls out', filter: 'Gender.NotInArray(1,2)', hand: [28] },
  { family: 'membership', name: 'InArrayOrNull is true on null', filter: 'Gender.InArrayOrNull(0)', hand: [3, 4, 22, 28] },
  { family: 'membership', name: 'NotInArrayOrNull is true on null', filter: 'Gender.NotInArrayOrNull(1,2)', hand: [3, 4, 22, 28] },
  {
    family: 'membership',
    name: 'InArray on datetimes compares instants',
    filter: 'CreatedOn.InArray(2023-12-31T23:00:00Z,2024-01-01T12:30:15+02:00)',
    hand: [2, 7],
  },
  { family: 'membership', name: 'InArray on booleans', filter: 'EePortal.InArray(false)' },
  // in-fields
  { family: 'in-fields', name: 'StartsWithInFields over two names', filter: "'S'.StartsWithInFields(FirstName,LastName)" },
  { family: 'in-fields', name: 'EqualInFields', filter: 'smith.EqualInFields(FirstName,LastName)', hand: [1, 2, 3, 24, 29] },
  {
    family: 'in-fields',
    name: 'LessThanInFields over two datetimes, nulls contribute false',
    filter: '2024-03-01.LessThanInFields(LastPaidOn,LastEarnedWagesOn)',
    hand: [2, 8],
  },
  {
    family: 'in-fields',
    name: 'GreaterThanOrEqualInFields',
    filter: '2024-03-01.GreaterThanOrEqualInFields(LastPaidOn,LastEarnedWagesOn)',
    hand: [1, 5],
  },
  { family: 'in-fields', name: 'ContainsInFields', filter: 'ü.ContainsInFields(FirstName,LastName)', hand: [8] },
  { family: 'in-fields', name: 'EndsWithInFields', filter: 'e.EndsWithInFields(FirstName,LastName)' },
  {
    family: 'in-fields',
    name: 'LessThanOrEqualInFields and GreaterThanInFields: the field on the left',
    filter: '1003.LessThanOrEqualInFields(EmployeeNumber);1001.GreaterThanInFields(EmployeeNumber)',
    hand: [2, 3],
  },
  // groups
  { family: 'groups', name: 'top-level ; is And', filter: 'Gender.Equal(2);EePortal.Equal(true)', hand: [11, 16, 24] },
  { family: 'groups', name: 'And inside Or', filter: 'Or(Gender.Equal(0);And(ClientId.Equal(2);Gender.Equal(2)))', hand: [28, 30] },
  { family: 'groups', name: 'single-child Or means its child', filter: 'Or(LastName.Equal(zed))', hand: [30] },
  { family: 'groups', name: 'clause order does not change the result', filter: 'EePortal.Equal(true);Gender.Equal(2)', hand: [11, 16, 24] },
  { family: 'groups', name: 'the empty filter matches every record', filter: '' },
  // fold
  { family: 'fold', name: 'ZOË equals zoë', filter: 'FirstName.Equal(zoë)', hand: [4, 5] },
  { family: 'fold', name: 'zoe does not equal Zoë (no accent folding)', filter: 'FirstName.Equal(zoe)', hand: [11] },
  { family: 'fold', name: 'ß does not equal SS (no full case folding)', filter: 'LastName.Equal(ß)', hand: [] },
  { family: 'fold', name: 'SS equals ss', filter: 'LastName.Equal(ss)', hand: [6] },
  { family: 'fold', name: 'İ contains i', filter: 'LastName.Contains(i)' },
  { family: 'fold', name: 'case-sensitive Equal', filter: 'LastName.Equal(smith)', caseSensitive: true, hand: [3, 24] },
  {
    family: 'fold',
    name: 'case-sensitive StartsWith',
    filter: 'LastName.StartsWith(S)',
    caseSensitive: true,
    hand: [1, 2, 4, 6, 20, 25, 29],
  },
  { family: 'fold', name: 'Ü folds to ü in Contains', filter: 'LastName.Contains(ÜLL)', hand: [8] },
  // datetime
  {
    family: 'datetime',
    name: 'a date means midnight UTC; offsets name the same instant',
    filter: 'CreatedOn.Equal(2024-01-01)',
    hand: [1, 4, 29, 30],
  },
  { family: 'datetime', name: 'LessThan an instant written with Z', filter: 'CreatedOn.LessThan(2024-01-01T00:00:00Z)', hand: [2] },
  {
    family: 'datetime',
    name: 'one millisecond after midnight is greater',
    filter: 'CreatedOn.GreaterThan(2024-01-01);CreatedOn.LessThan(2024-01-02)',
    hand: [3, 5, 6, 7],
  },
  { family: 'datetime', name: 'an offset in the record', filter: 'CreatedOn.Equal(2024-01-01T10:30:15Z)', hand: [7] },
  { family: 'datetime', name: 'fractions beyond milliseconds are cut', filter: 'CreatedOn.Equal(2024-01-02T00:00:00.001Z)', hand: [8] },
  { family: 'datetime', name: 'a time without a zone is UTC', filter: 'CreatedOn.Equal(2024-01-01T10:30)', hand: [5] },
  {
    family: 'datetime',
    name: 'an offset in the filter',
    filter: 'LastPaidOn.GreaterThanOrEqual(2024-01-01T01:00:00+01:00)',
    hand: [1, 2, 8],
  },
  { family: 'datetime', name: 'an impossible record datetime is null', filter: 'CreatedOn.IsNull()', hand: [26] },
  {
    family: 'datetime',
    name: 'date-only record values',
    filter: 'BirthOn.LessThan(1970-01-01)',
    hand: [8, 19, 20, 21, 22, 23, 24, 25, 28],
  },
  // sort
  { family: 'sort', name: 'LastName Asc: nulls first, code point order of folded text', sort: 'LastName=Asc' },
  { family: 'sort', name: 'LastName Desc: nulls last', sort: 'LastName=Desc' },
  { family: 'sort', name: 'LastName Asc case-sensitive: upper case first', sort: 'LastName=Asc', caseSensitive: true },
  { family: 'sort', name: 'ties keep dataset order', filter: 'LastName.Equal(smith)', sort: 'LastName=Asc', hand: [1, 2, 3, 24, 29] },
  {
    family: 'sort',
    name: 'ties keep dataset order under Desc',
    filter: 'LastName.Equal(smith)',
    sort: 'LastName=Desc',
    hand: [1, 2, 3, 24, 29],
  },
  {
    family: 'sort',
    name: 'code point order: abe < zoe < zoé < åberg < ～ < 😀',
    filter: 'LastName.InArray(abe,zoe,zoé,Åberg,～,😀)',
    sort: 'LastName=Asc',
    hand: [10, 11, 12, 9, 13, 14],
  },
  { family: 'sort', name: 'integers with nulls first', sort: 'EmployeeNumber=Asc' },
  {
    family: 'sort',
    name: 'integers Desc with nulls last',
    filter: 'EmployeeNumber.LessThan(1003)',
    sort: 'EmployeeNumber=Desc',
    hand: [2, 1, 28, 20],
  },
  {
    family: 'sort',
    name: 'datetimes as instants, not text',
    filter: 'CreatedOn.LessThan(2024-01-02)',
    sort: 'CreatedOn=Asc',
    hand: [2, 1, 4, 29, 30, 3, 5, 7, 6],
  },
  { family: 'sort', name: 'booleans false before true, nulls first', sort: 'EePortal=Asc' },
  { family: 'sort', name: 'two keys: Gender Asc then CreatedOn Desc', sort: 'Gender=Asc;CreatedOn=Desc' },
  { family: 'sort', name: 'Id Desc', sort: 'Id=Desc' },
  { family: 'sort', name: 'implicit Asc', sort: 'FirstName' },
  // include-deleted
  {
    family: 'include-deleted',
    name: 'soft-deleted rows hidden, a null RowStatus kept',
    deleted: 'hide',
    hand: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 25, 26, 27, 28, 29, 30],
  },
  {
    family: 'include-deleted',
    name: 'a filter inside the soft-delete scope',
    filter: 'LastName.Equal(smith)',
    deleted: 'hide',
    hand: [1, 2, 3, 29],
  },
  {
    family: 'include-deleted',
    name: 'RowStatus.Equal(3) finds nothing when deleted rows are hidden',
    filter: 'RowStatus.Equal(3)',
    deleted: 'hide',
    hand: [],
  },
  { family: 'include-deleted', name: 'RowStatus.Equal(3) finds them when included', filter: 'RowStatus.Equal(3)', hand: [23, 24] },
  {
    family: 'include-deleted',
    name: 'a sort inside the soft-delete scope',
    filter: 'Gender.Equal(2)',
    sort: 'Id=Desc',
    deleted: 'hide',
    hand: [30, 26, 20, 16, 12, 11, 9, 7, 5, 2],
  },
  // validation
  { family: 'validation', name: 'unknown field', filter: 'Nope.Equal(1)' },
  { family: 'validation', name: 'a field outside the schema (an array)', filter: 'Files.IsNull()' },
  { family: 'validation', name: 'text operator on an integer', filter: 'Gender.Contains(1)' },
  { family: 'validation', name: 'a text operator over a boolean field in InFields', filter: 'x.StartsWithInFields(EePortal,LastName)' },
  { family: 'validation', name: 'an order operator on a string', filter: 'LastName.GreaterThan(zoe)' },
  { family: 'validation', name: 'an order operator on a boolean', filter: 'EePortal.LessThan(true)' },
  { family: 'validation', name: 'not an integer', filter: 'Gender.Equal(abc)' },
  { family: 'validation', name: 'a fraction for an integer', filter: 'EmployeeNumber.Equal(1.5)' },
  { family: 'validation', name: 'an integer beyond ±(2^53−1)', filter: 'EmployeeNumber.Equal(9007199254740992)' },
  { family: 'validation', name: 'an impossible date', filter: 'CreatedOn.Equal(2023-02-30)' },
  { family: 'validation', name: '24:00 is not a time', filter: 'CreatedOn.Equal(2024-01-01T24:00)' },
  { family: 'validation', name: 'not a boolean', filter: 'EePortal.Equal(yes)' },
  { family: 'validation', name: 'an invalid value in a list', filter: 'Gender.InArray(1,two)' },
  { family: 'validation', name: 'a syntax error', filter: 'Gender.Equal(1' },
  { family: 'validation', name: 'unknown sort field', sort: 'Nope=Asc' },
  { family: 'validation', name: 'a bad sort direction', sort: 'LastName=Up' },
  { family: 'validation', name: 'a valid filter with an invalid sort', filter: 'Gender.Equal(1)', sort: 'Files=Asc' },
];
