// The employee list on Express 5: node examples/servers/express.mjs (PORT, API_TOKEN, LIST_SECRET from the environment).
import express from 'express';
import { listHandler } from 'wepql/express';
import { createMemoryDataSource } from 'wepql/sources';
import { createTokenCodec } from 'wepql/list';
import { definePolicy, employeeSchema } from 'wepql';
// The sample ships with the package: imported by its name, it loads in a clone and in an app that installed wepql.
import employees from 'wepql/examples/employees.json' with { type: 'json' };

const clients = new Set(employees.map((e) => String(e.ClientId)));
const token = process.env.API_TOKEN ?? 'demo-token';

const list = listHandler({
  source: createMemoryDataSource(employees, {
    schema: employeeSchema,
    clientField: 'ClientId',
    deleted: { field: 'RowStatus', value: 3 },
    tieBreaker: 'Id',
  }),
  schema: employeeSchema,
  codec: createTokenCodec({ secret: process.env.LIST_SECRET ?? 'demo secret: use 32 random bytes' }),
  // Ssn: only Ssn.Equal(…) in filters, never in sorts.
  policy: definePolicy({ fields: { Ssn: { filter: ['Equal'], sort: false } } }, employeeSchema),
  resolveClient: (id) => (clients.has(id) ? Number(id) : undefined), // otherwise the 404 envelope
  onError: (error) => console.error(error),
});

// Authentication stays yours: here a bearer token, answered like the reference server.
function requireBearer(req, res, next) {
  if (req.get('authorization') === `Bearer ${token}`) return next();
  res.status(401).set('www-authenticate', 'Bearer error="invalid_token"').end();
}

const app = express();
app.get('/api/public/clients/:client_id/employees', requireBearer, list);
const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
