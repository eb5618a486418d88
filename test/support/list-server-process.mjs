// One list server process for the scaling-out tests: the BUILT reference server
// (`createListServer` from dist/) over the sample employees, with its data token keys
// from the environment, on a free loopback port. Prints `listening on <url>` when ready.
//   WEPQL_SECRET            the key that signs (16+ bytes)
//   WEPQL_PREVIOUS_SECRETS  keys that only verify, separated by commas
import { createListServer } from '../../dist/reference-server/index.js';
import { loadSampleEmployees } from '../../dist/sample/employees.js';

const previous = (process.env.WEPQL_PREVIOUS_SECRETS ?? '').split(',').filter((s) => s !== '');
const app = createListServer({
  records: loadSampleEmployees(),
  authToken: process.env.WEPQL_DEMO_TOKEN ?? 'scale-out-test-token',
  secret: process.env.WEPQL_SECRET,
  previousSecrets: previous,
});
const { url } = await app.listen();
process.stdout.write(`listening on ${url}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
