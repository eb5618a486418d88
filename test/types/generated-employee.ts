import type { FIELD_TYPES } from '../../src/sdk/index.js';

export interface GeneratedEmployee {
  readonly [FIELD_TYPES]?: { readonly Id: 'integer'; readonly W2Id: 'integer'; readonly ClientId: 'integer'; readonly EmployeeNumber: 'integer'; readonly Gender: 'integer'; readonly BirthOn: 'datetime'; readonly ResidentialAddressId: 'integer'; readonly PeoHireDate: 'datetime'; readonly OrigHireDate: 'datetime'; readonly LastPaidOn: 'datetime'; readonly LastEarnedWagesOn: 'datetime'; readonly BenefitWaitPeriodStart: 'datetime'; readonly IdentificationType: 'integer'; readonly VeteranStatus: 'integer'; readonly Citizenship: 'integer'; readonly Checklist: 'integer'; readonly Source: 'integer'; readonly RowStatus: 'integer'; readonly CreatedOn: 'datetime'; readonly ModifiedOn: 'datetime' };
  /** Employee identifier. */
  Id: number;
  /** W-2 identifier. */
  W2Id: number;
  /** Identifier of the company (client) the employee belongs to. */
  ClientId: number;
  /** Employee number within the company. */
  EmployeeNumber: number;
  /** First name. */
  FirstName: string;
  /** Last name. */
  LastName: string;
  /** Middle name. */
  MiddleName: string;
  /** Other names. */
  OtherNames: string;
  /** Nickname. */
  NickName: string;
  /** Name suffix. */
  Suffix: string;
  /** Social security number (digits). */
  Ssn: string;
  /** Gender code (enumeration; meanings not published). */
  Gender?: number;
  /** Date of birth (ISO 8601, UTC). */
  BirthOn: string;
  /** Personal e-mail address. */
  PersonalEmail: string;
  /** Work e-mail address. */
  WorkEmail: string;
  /** Personal phone number. */
  PersonalPhone: string;
  /** Cell phone number. */
  CellPhone: string;
  /** Work phone number. */
  WorkPhone: string;
  /** Work cell phone number. */
  WorkCellPhone: string;
  /** Identifier of the residential address. */
  ResidentialAddressId?: number;
  /** PEO hire date. */
  PeoHireDate?: string;
  /** Original hire date. */
  OrigHireDate?: string;
  /** When the employee was last paid. */
  LastPaidOn?: string;
  /** When the employee last earned wages. */
  LastEarnedWagesOn?: string;
  /** Start of the benefit waiting period. */
  BenefitWaitPeriodStart?: string;
  /** Whether the employee has portal access. */
  EePortal: boolean;
  /** Whether the employee is eligible for rehire. */
  EligibleForRehire: boolean;
  /** Whether the employee is eligible for a 401(k). */
  EligibleFor401k: boolean;
  /** Whether the setup fee was charged. */
  SetupFeeCharged: boolean;
  /** Whether the termination fee was charged. */
  TerminationFeeCharged: boolean;
  /** Whether paystubs are always printed. */
  ForcePrintPaystub: boolean;
  /** Disability flag (spelled as in the API). */
  Handicaped: boolean;
  /** Blindness flag. */
  Blind: boolean;
  /** Whether the employee is deceased. */
  Deceased: boolean;
  /** Highly compensated employee flag. */
  HCE: boolean;
  /** Identification type code (enumeration). */
  IdentificationType: number;
  /** Veteran status code (enumeration). */
  VeteranStatus: number;
  /** Citizenship code (enumeration). */
  Citizenship: number;
  /** Checklist code (enumeration). */
  Checklist: number;
  /** Source code (enumeration). */
  Source: number;
  /** Row status code (enumeration). */
  RowStatus: number;
  /** Driving licence number. */
  DrivingLicense: string;
  /** Driving licence class. */
  DrivingLicenseClass: string;
  /** State that issued the driving licence. */
  DrivingLicenseState: string;
  /** Time clock number. */
  ClockNumber: string;
  /** Visa type. */
  VisaType: string;
  /** When the record was created. */
  CreatedOn: string;
  /** When the record was last modified. */
  ModifiedOn: string;
}
