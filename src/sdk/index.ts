/**
 * `wepql/sdk`: build queries from typed code and page through list endpoints.
 *
 * @packageDocumentation
 */
export { FIELD_TYPES } from '../builder/field-types.js';
export type {
  DatetimeArgument,
  DatetimeText,
  EqualityValue,
  FieldKind,
  FieldPath,
  FieldTypeMap,
  FieldTypesFor,
  FilterValue,
  InFieldsMethod,
  InFieldsPath,
  KindAt,
  RecordPaths,
  ValueAt,
  ValueOfKind,
} from '../builder/field-types.js';
export { where } from '../builder/filter-builder.js';
export type {
  DatetimeConditions,
  EqualityConditions,
  FieldConditions,
  Filter,
  FilterPart,
  InFieldsConditions,
  InFieldsEquality,
  InFieldsOrder,
  InFieldsText,
  OrderConditions,
  TextConditions,
} from '../builder/filter-builder.js';
export { orderBy } from '../builder/sort-builder.js';
export type { Sort, SortDirectionInput } from '../builder/sort-builder.js';
export type { Employee, EmployeeFieldTypes } from '../builder/employee.js';
export { encodeListRequest, toFilterText, toSortText } from './request.js';
export type { EncodeListRequestOptions, EncodedListRequest, FilterInput, ListRequestParams, SortInput } from './request.js';
export { DataTokenExpiredError, ListRequestError, PagingError } from './errors.js';
export type { ListRequestErrorDetails, PagingProblem } from './errors.js';
export { withRetries } from './http.js';
export type { Credentials, FetchInit, FetchLike, HeadersLike, ResponseLike, RetryOptions, RetryPolicyOptions } from './http.js';
export { paginate } from './paginate.js';
export type { ListPage, PageRequestContext, PageSource, PaginateOptions, Paginated } from './paginate.js';
export type { ErrorEnvelope, ListEnvelope, WirePagination } from '../wire/contract.js';
