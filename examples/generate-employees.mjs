#!/usr/bin/env node
/**
 * Writes examples/employees.json: sample employee records with every field of
 * the API's employee record, for the CLI, the server, the tests and
 * the benchmarks.
 *
 * Deterministic: a seeded PRNG (mulberry32) and no clock, locale or
 * dependency, so `node examples/generate-employees.mjs` regenerates the file
 * byte for byte. `generateEmployees(count, seed)` is exported so benchmarks
 * can build larger sets (100,000 records) with the same shape.
 *
 * Conventions of this sample (the API does not give their meanings):
 * - `RowStatus`: 1 = active, 2 = inactive, 3 = deleted (soft-deleted; about 3%).
 * - `Gender`: 1 = male, 2 = female, 3 = not specified; omitted when unknown.
 * - Optional fields (`Gender`, `ResidentialAddressId`, `PeoHireDate`,
 *   `OrigHireDate`, `LastPaidOn`, `LastEarnedWagesOn`,
 *   `BenefitWaitPeriodStart`) are omitted when they have no value, never
 *   written as `null`; other string fields may be `""`.
 * - Datetimes are ISO 8601 UTC with `Z`: `CreatedOn`/`ModifiedOn` carry
 *   milliseconds (`2021-04-05T13:22:08.417Z`), the others do not
 *   (`1984-07-19T00:00:00Z`).
 * - Names mix case (`McDonald`, `SMITH`, `smith`), apostrophes (`O'Brien`),
 *   accents and other scripts (`Zoë`, `Łukasz`, `李`), one astral-plane
 *   character in some nicknames, and `%` / `_` in free-text fields
 *   (`NickName`, `ClockNumber`, `OtherNames`).
 *
 * @example
 * // node examples/generate-employees.mjs            → writes examples/employees.json
 * // import { generateEmployees } from './generate-employees.mjs';
 * // generateEmployees(100_000, 7).length             → 100000
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Default number of records and seed of the committed sample. */
export const SAMPLE_COUNT = 1200;
export const SAMPLE_SEED = 20240601;

/** mulberry32: small, fast, good enough for sample data; 32-bit state. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  'Sarah',
  'Charles',
  'Karen',
  'Daniel',
  'Nancy',
  'Matthew',
  'Lisa',
  'Anthony',
  'Betty',
  'Mark',
  'Sandra',
  'Donald',
  'Ashley',
  'Zoë',
  'Łukasz',
  'José',
  'Renée',
  'Søren',
  'Ólafur',
  'Chloé',
  'Björn',
  'Małgorzata',
  'François',
  'DeShawn',
  'LaToya',
  "D'Angelo",
  'Mary-Kate',
  'Ana Lucía',
  'Nguyễn',
  'Ibrahim',
  'Aisha',
  'Dmitri',
  'Yuki',
  'dave',
  'ANNA',
  'Émile',
  'İlker',
  'Σοφία',
  'Иван',
  '明',
  'Ørjan',
  'Ðorđe',
  'Siân',
];
const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  "O'Brien",
  "O'Neil",
  "D'Souza",
  "O'Connor",
  'McDonald',
  'MacLeod',
  'van der Berg',
  'de la Cruz',
  'DiMaggio',
  'LeBlanc',
  'SMITH',
  'smith',
  'Müller',
  'Øster',
  'Żółkiewski',
  'Nuñez',
  'Çelik',
  'Škoda',
  'Åberg',
  'Ängström',
  'Kowalski',
  'Nowak',
  'Zhang',
  '李',
  'Tanaka',
  'Ivanova',
  'Παπαδόπουλος',
  'Smith-Jones',
  'Lee',
  'Kim',
];
const MIDDLE_NAMES = ['', '', '', 'A', 'B.', 'Marie', 'Lee', 'Ann', 'José', 'Ray', 'Élise', 'J'];
const SUFFIXES = ['', '', '', '', '', '', '', 'Jr.', 'Sr.', 'II', 'III', 'IV'];
const NICKNAMES = ['', '', '', '', 'Bud', 'Sunny', 'Doc', 'Ace', '100%_Ray', 'J_J', 'Big%Mike', 'Dot 🙂', 'Kiki', "Mo'"];
const OTHER_NAMES = ['', '', '', '', '', 'formerly Smith', 'née Åberg', 'a.k.a. 50% Joe', 'alias_one', 'Max; Maxi'];
const STATES = ['CA', 'NY', 'TX', 'FL', 'WA', 'IL', 'MA', 'CO', 'GA', 'NJ'];
const LICENSE_CLASSES = ['', 'A', 'B', 'C', 'M'];
const VISA_TYPES = ['', '', '', '', '', '', 'H-1B', 'L-1', 'O-1', 'TN', 'E-2'];
const EMAIL_DOMAINS = ['example.com', 'example.org', 'mail.example.net'];

function pad(n, width) {
  return String(n).padStart(width, '0');
}

/** `1984-07-19T00:00:00Z` (no milliseconds) or `…:08.417Z` (with). */
function isoUtc(ms, withMillis) {
  const iso = new Date(ms).toISOString();
  return withMillis ? iso : iso.slice(0, 19) + 'Z';
}

/** Lower-cased ASCII letters of a name, for e-mail local parts. */
function asciiSlug(text) {
  const slug = text
    .normalize('NFKD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
  return slug === '' ? 'user' : slug;
}

const DAY = 86_400_000;
const T_1950 = Date.UTC(1950, 0, 1);
const T_2005 = Date.UTC(2005, 0, 1);
const T_2010 = Date.UTC(2010, 0, 1);
const T_2024 = Date.UTC(2024, 0, 1);
const T_2025 = Date.UTC(2025, 6, 1);

/**
 * Builds `count` employee records from `seed`.
 *
 * @example
 * generateEmployees(3, 1).map((e) => e.Id); // [10001, 10002, 10003]
 */
export function generateEmployees(count = SAMPLE_COUNT, seed = SAMPLE_SEED) {
  const random = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const chance = (p) => random() < p;
  const day = (from, to) => from + Math.floor(random() * ((to - from) / DAY)) * DAY;
  const employeeNumbers = new Map();
  const records = [];

  for (let i = 0; i < count; i++) {
    const roll = random();
    const clientId = roll < 0.45 ? 1 : roll < 0.85 ? 2 : 3;
    const employeeNumber = (employeeNumbers.get(clientId) ?? 1000) + 1;
    employeeNumbers.set(clientId, employeeNumber);

    const firstName = pick(FIRST_NAMES);
    const lastName = pick(LAST_NAMES);
    const birthOn = day(T_1950, T_2005);
    const hireFrom = Math.min(Math.max(birthOn + 18 * 365 * DAY, T_2010 - 20 * 365 * DAY), T_2024 - 30 * DAY);
    const origHire = day(hireFrom, T_2024);
    const createdOn = Math.max(origHire, T_2010) + int(0, 400) * DAY + int(0, DAY - 1);
    const modifiedOn = Math.min(createdOn + int(0, 900) * DAY + int(0, DAY - 1), T_2025);
    const local = `${asciiSlug(firstName)}.${asciiSlug(lastName)}${i}`;
    const deleted = chance(0.03);
    const phone = () => (chance(0.15) ? '' : `(${int(200, 989)}) ${int(200, 999)}-${pad(int(0, 9999), 4)}`);

    const record = {
      Id: 10001 + i,
      W2Id: 50001 + i * 3 + int(0, 2),
      ClientId: clientId,
      EmployeeNumber: employeeNumber,
      FirstName: firstName,
      LastName: lastName,
      MiddleName: pick(MIDDLE_NAMES),
      OtherNames: pick(OTHER_NAMES),
      NickName: pick(NICKNAMES),
      Suffix: pick(SUFFIXES),
      Ssn: pad(int(100_000_000, 899_999_999), 9),
    };
    if (chance(0.9)) record.Gender = int(1, 3);
    record.BirthOn = isoUtc(birthOn, false);
    record.PersonalEmail = chance(0.1) ? '' : `${local}@${pick(EMAIL_DOMAINS)}`;
    record.WorkEmail = `${local}@corp${clientId}.example.com`;
    record.PersonalPhone = phone();
    record.CellPhone = phone();
    record.WorkPhone = phone();
    record.WorkCellPhone = phone();
    if (chance(0.85)) record.ResidentialAddressId = 700_000 + i * 2 + int(0, 1);
    if (chance(0.4)) record.PeoHireDate = isoUtc(origHire + int(0, 200) * DAY, false);
    if (chance(0.8)) record.OrigHireDate = isoUtc(origHire, false);
    const paid = !deleted && chance(0.85);
    if (paid) {
      const lastPaid = day(T_2024 - 300 * DAY, T_2025);
      record.LastPaidOn = isoUtc(lastPaid, false);
      if (chance(0.9)) record.LastEarnedWagesOn = isoUtc(lastPaid - int(1, 14) * DAY, false);
    }
    if (chance(0.6)) record.BenefitWaitPeriodStart = isoUtc(origHire + int(30, 90) * DAY, false);
    record.EePortal = chance(0.7);
    record.EligibleForRehire = !deleted && chance(0.9);
    record.EligibleFor401k = chance(0.6);
    record.SetupFeeCharged = chance(0.5);
    record.TerminationFeeCharged = deleted && chance(0.5);
    record.ForcePrintPaystub = chance(0.05);
    record.Handicaped = chance(0.03);
    record.Blind = chance(0.01);
    record.Deceased = chance(0.005);
    record.HCE = chance(0.08);
    record.IdentificationType = int(1, 4);
    record.VeteranStatus = int(0, 3);
    record.Citizenship = int(1, 3);
    record.Checklist = int(0, 15);
    record.Source = int(1, 5);
    record.RowStatus = deleted ? 3 : chance(0.08) ? 2 : 1;
    const state = pick(STATES);
    const licensed = chance(0.8);
    record.DrivingLicense = licensed ? `${state}${pad(int(0, 99_999_999), 8)}` : '';
    record.DrivingLicenseClass = licensed ? pick(LICENSE_CLASSES) : '';
    record.DrivingLicenseState = licensed ? state : '';
    record.ClockNumber = chance(0.2) ? '' : chance(0.1) ? `C_${pad(int(0, 999), 3)}%` : `C${pad(int(0, 99_999), 5)}`;
    record.VisaType = pick(VISA_TYPES);
    record.CreatedOn = isoUtc(createdOn, true);
    record.ModifiedOn = isoUtc(modifiedOn, true);
    record.Files = [];
    records.push(record);
  }
  return records;
}

/** One record per line: diffs stay readable and the file stays small. */
export function serializeEmployees(records) {
  return `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const target = fileURLToPath(new URL('./employees.json', import.meta.url));
  writeFileSync(target, serializeEmployees(generateEmployees()));
  process.stdout.write(`wrote ${SAMPLE_COUNT} employees to ${target}\n`);
}
