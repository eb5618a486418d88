/**
 * The employee record of the list endpoint
 * (`GET /api/public/clients/{client_id}/employees`), typed for the builder:
 * datetimes arrive as ISO strings, so they are declared under
 * `[FIELD_TYPES]` and `where<Employee>()` treats them as datetimes with no
 * further declaration.
 */
import type { FIELD_TYPES } from './field-types.js';

/**
 * Kinds of the employee fields the TypeScript types cannot tell apart:
 * datetimes held as text, and integers (which a `number` cannot express).
 *
 * @example
 * type K = EmployeeFieldTypes['BirthOn']; // 'datetime'
 */
export type EmployeeFieldTypes = {
  readonly Id: 'integer';
  readonly W2Id: 'integer';
  readonly ClientId: 'integer';
  readonly EmployeeNumber: 'integer';
  readonly Gender: 'integer';
  readonly ResidentialAddressId: 'integer';
  readonly IdentificationType: 'integer';
  readonly VeteranStatus: 'integer';
  readonly Citizenship: 'integer';
  readonly Checklist: 'integer';
  readonly Source: 'integer';
  readonly RowStatus: 'integer';
  readonly BirthOn: 'datetime';
  readonly PeoHireDate: 'datetime';
  readonly OrigHireDate: 'datetime';
  readonly LastPaidOn: 'datetime';
  readonly LastEarnedWagesOn: 'datetime';
  readonly BenefitWaitPeriodStart: 'datetime';
  readonly CreatedOn: 'datetime';
  readonly ModifiedOn: 'datetime';
};

/**
 * One element of `Data` in the employee list: every field of the
 * employee record (docs/schema.md §"The employee schema"). Optional fields are omitted when they have no value;
 * datetimes are ISO 8601 text in UTC with a `Z` suffix.
 *
 * @example
 * where<Employee>().field('BirthOn').lessThan(new Date('1990-01-01')).field('Deceased').equal(false);
 */
export interface Employee {
  readonly [FIELD_TYPES]?: EmployeeFieldTypes;
  Id: number;
  W2Id: number;
  ClientId: number;
  EmployeeNumber: number;
  FirstName: string;
  LastName: string;
  MiddleName: string;
  OtherNames: string;
  NickName: string;
  Suffix: string;
  /** Digits only. */
  Ssn: string;
  Gender?: number;
  BirthOn: string;
  PersonalEmail: string;
  WorkEmail: string;
  PersonalPhone: string;
  CellPhone: string;
  WorkPhone: string;
  WorkCellPhone: string;
  ResidentialAddressId?: number;
  PeoHireDate?: string;
  OrigHireDate?: string;
  LastPaidOn?: string;
  LastEarnedWagesOn?: string;
  BenefitWaitPeriodStart?: string;
  EePortal: boolean;
  EligibleForRehire: boolean;
  EligibleFor401k: boolean;
  SetupFeeCharged: boolean;
  TerminationFeeCharged: boolean;
  ForcePrintPaystub: boolean;
  Handicaped: boolean;
  Blind: boolean;
  Deceased: boolean;
  HCE: boolean;
  IdentificationType: number;
  VeteranStatus: number;
  Citizenship: number;
  Checklist: number;
  Source: number;
  RowStatus: number;
  DrivingLicense: string;
  DrivingLicenseClass: string;
  DrivingLicenseState: string;
  ClockNumber: string;
  VisaType: string;
  CreatedOn: string;
  ModifiedOn: string;
  /** An empty array when there are none; not filterable or sortable. */
  Files: readonly unknown[];
}
