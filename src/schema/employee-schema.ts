/**
 * The schema of the employee list (`GET /api/public/clients/{client_id}/employees`),
 * as docs/schema.md §"The employee schema" lists it. `schemas/employee.json` is the
 * same schema as a file; a test keeps the two equal.
 *
 * @packageDocumentation
 */
import type { Schema, SchemaDefinition } from './schema.js';
import { defineSchema } from './schema.js';

/**
 * The employee record's fields as a schema definition: every field of the
 * employee record, in its order, with the optional fields as `nullable`
 * (docs/schema.md §"The employee schema"). `Files` (an array of attachments) is left out: arrays are not
 * filterable or sortable in the language.
 *
 * @example
 * employeeSchemaDefinition.fields.Gender; // { type: 'integer', nullable: true, description: '…' }
 */
export const employeeSchemaDefinition = {
  fields: {
    Id: { type: 'integer', description: 'Employee identifier.' },
    W2Id: { type: 'integer', description: 'W-2 identifier.' },
    ClientId: { type: 'integer', description: 'Identifier of the company (client) the employee belongs to.' },
    EmployeeNumber: { type: 'integer', description: 'Employee number within the company.' },
    FirstName: { type: 'string', description: 'First name.' },
    LastName: { type: 'string', description: 'Last name.' },
    MiddleName: { type: 'string', description: 'Middle name.' },
    OtherNames: { type: 'string', description: 'Other names.' },
    NickName: { type: 'string', description: 'Nickname.' },
    Suffix: { type: 'string', description: 'Name suffix.' },
    Ssn: { type: 'string', description: 'Social security number (digits).' },
    Gender: { type: 'integer', nullable: true, description: 'Gender code (enumeration; meanings not published).' },
    BirthOn: { type: 'datetime', description: 'Date of birth (ISO 8601, UTC).' },
    PersonalEmail: { type: 'string', description: 'Personal e-mail address.' },
    WorkEmail: { type: 'string', description: 'Work e-mail address.' },
    PersonalPhone: { type: 'string', description: 'Personal phone number.' },
    CellPhone: { type: 'string', description: 'Cell phone number.' },
    WorkPhone: { type: 'string', description: 'Work phone number.' },
    WorkCellPhone: { type: 'string', description: 'Work cell phone number.' },
    ResidentialAddressId: { type: 'integer', nullable: true, description: 'Identifier of the residential address.' },
    PeoHireDate: { type: 'datetime', nullable: true, description: 'PEO hire date.' },
    OrigHireDate: { type: 'datetime', nullable: true, description: 'Original hire date.' },
    LastPaidOn: { type: 'datetime', nullable: true, description: 'When the employee was last paid.' },
    LastEarnedWagesOn: { type: 'datetime', nullable: true, description: 'When the employee last earned wages.' },
    BenefitWaitPeriodStart: { type: 'datetime', nullable: true, description: 'Start of the benefit waiting period.' },
    EePortal: { type: 'boolean', description: 'Whether the employee has portal access.' },
    EligibleForRehire: { type: 'boolean', description: 'Whether the employee is eligible for rehire.' },
    EligibleFor401k: { type: 'boolean', description: 'Whether the employee is eligible for a 401(k).' },
    SetupFeeCharged: { type: 'boolean', description: 'Whether the setup fee was charged.' },
    TerminationFeeCharged: { type: 'boolean', description: 'Whether the termination fee was charged.' },
    ForcePrintPaystub: { type: 'boolean', description: 'Whether paystubs are always printed.' },
    Handicaped: { type: 'boolean', description: 'Disability flag (spelled as in the API).' },
    Blind: { type: 'boolean', description: 'Blindness flag.' },
    Deceased: { type: 'boolean', description: 'Whether the employee is deceased.' },
    HCE: { type: 'boolean', description: 'Highly compensated employee flag.' },
    IdentificationType: { type: 'integer', description: 'Identification type code (enumeration).' },
    VeteranStatus: { type: 'integer', description: 'Veteran status code (enumeration).' },
    Citizenship: { type: 'integer', description: 'Citizenship code (enumeration).' },
    Checklist: { type: 'integer', description: 'Checklist code (enumeration).' },
    Source: { type: 'integer', description: 'Source code (enumeration).' },
    RowStatus: { type: 'integer', description: 'Row status code (enumeration).' },
    DrivingLicense: { type: 'string', description: 'Driving licence number.' },
    DrivingLicenseClass: { type: 'string', description: 'Driving licence class.' },
    DrivingLicenseState: { type: 'string', description: 'State that issued the driving licence.' },
    ClockNumber: { type: 'string', description: 'Time clock number.' },
    VisaType: { type: 'string', description: 'Visa type.' },
    CreatedOn: { type: 'datetime', description: 'When the record was created.' },
    ModifiedOn: { type: 'datetime', description: 'When the record was last modified.' },
  },
} as const satisfies SchemaDefinition;

/**
 * The employee list's schema, ready for `validateFilter`, `analyzeFilter`,
 * the evaluator and the SQL compiler. `Files` is not part of it (see
 * `employeeSchemaDefinition`).
 *
 * @example
 * analyzeFilter('LastName.StartsWith(Sm);Gender.Equal(1)', { schema: employeeSchema }).value; // a TypedFilter
 * employeeSchema.lookup('createdon'); // { found: 'field', field: { name: 'CreatedOn', type: 'datetime', … }, exactCase: false }
 */
export const employeeSchema: Schema = defineSchema(employeeSchemaDefinition);
