// A project of saved filters for the lint benchmark and its CLI test: 1,000
// JSON files of 10 filters each, a wepql.config.json naming the schema and
// the schema before a rename (LastName was Surname, Gender was nullable).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the project into `dir` and returns the number of filters written. */
export function writeLintProject(dir, { files = 1000, perFile = 10 } = {}) {
  const employee = JSON.parse(readFileSync(new URL('../schemas/employee.json', import.meta.url), 'utf8'));
  const previous = structuredClone(employee);
  delete previous.$schema;
  previous.version = 1;
  const fields = Object.entries(previous.fields).map(([k, v]) => (k === 'LastName' ? ['Surname', v] : [k, v]));
  previous.fields = Object.fromEntries(fields);
  const next = structuredClone(employee);
  delete next.$schema;
  next.version = 2;
  next.fields.LastName = { ...next.fields.LastName, renamedFrom: 'Surname' };
  next.fields.Gender = { ...next.fields.Gender, nullable: false };
  mkdirSync(join(dir, 'schemas'), { recursive: true });
  writeFileSync(join(dir, 'schemas', 'v1.json'), JSON.stringify(previous, null, 2));
  writeFileSync(join(dir, 'schemas', 'v2.json'), JSON.stringify(next, null, 2));
  writeFileSync(
    join(dir, 'wepql.config.json'),
    JSON.stringify(
      { schema: 'schemas/v2.json', previousSchema: 'schemas/v1.json', paths: ['views'], rules: { 'implicit-direction': 'off' } },
      null,
      2,
    ),
  );
  let seed = 7;
  const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const names = ['Smith', 'Jones', "O''Brien", 'García', 'Ng'];
  const n = () => Math.floor(rand() * 100000);
  // Nearly every text is distinct (random numbers), so the run measures linting, not its cache.
  const templates = [
    () => `Surname.StartsWith(${pick(names)});Or(Gender.Equal(1);EmployeeNumber.Equal(${n()}))`,
    () =>
      `RowStatus.NotEqual(3);BirthOn.GreaterThanOrEqual(19${10 + Math.floor(rand() * 89)}-01-${10 + Math.floor(rand() * 18)});Id.GreaterThan(${n()})`,
    () => `Gender.IsNull();ClientId.Equal(${n()})`,
    () => `EmployeeNumber.GreaterThan(${n()});EmployeeNumber.LessThan(${n()})`,
    () => `'${pick(['D', 'Sm', 'An'])}${n()}'.StartsWithInFields(FirstName,Surname);EePortal.Equal(true)`,
    () => `Or(And(FirstName.Contains(an${n()});LastName.EndsWith(son));WorkEmail.EndsWith(@example.com))`,
    () => `Surname.InArray(${pick(names)},x${n()});W2Id.LessThanOrEqual(${n()})`,
  ];
  mkdirSync(join(dir, 'views'), { recursive: true });
  let count = 0;
  for (let f = 0; f < files; f++) {
    const sub = join(dir, 'views', `team-${f % 20}`);
    mkdirSync(sub, { recursive: true });
    const views = Array.from({ length: perFile }, (_, i) => ({ name: `view ${f}-${i}`, filter: pick(templates)() }));
    count += views.length;
    writeFileSync(join(sub, `views-${f}.json`), JSON.stringify(views, null, 2) + '\n');
  }
  return count;
}
