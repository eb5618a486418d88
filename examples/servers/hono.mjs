// The employee list on Hono 4 with @hono/node-server: node examples/servers/hono.mjs (PORT, API_TOKEN, LIST_SECRET from the environment).
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { listHandler } from 'wepql/hono';
import { createMemoryDataSource } from 'wepql/sources';
import { createTokenCodec } from 'wepql/list';
import { definePolicy, employeeSchema } from 'wepql';
// The sample ships with the package: imported by its name, it loads in a clone and in an app that installed wepql.
import employees from 'wepql/examples/employees.json' with { type: 'json' };

const clients = new Set(employees.map((e) => String(e.ClientId)));
const token = process.env.API_TOKEN ?? 'demo-token';
const route = '/api/public/clients/:client_id/employees';

const app = new Hono();
// Authentication stays yours: here a bearer token, answered like the reference server.
app.use(route, async (c, next) => {
  if (c.req.header('authorization') !== `Bearer ${token}`) return c.body(null, 401, { 'www-authenticate': 'Bearer error="invalid_token"' });
  await next();
});
app.get(
  route,
  listHandler({
    source: createMemoryDataSource(employees, {
      schema: employeeSchema,
      clientField: 'ClientId',
      deleted: { field: 'RowStatus', value: 3 },
      tieBreaker: 'Id',
    }),
    schema: employeeSchema,
    codec: createTokenCodec({ secret: process.env.LIST_SECRET ?? 'demo secret: use 32 random bytes' }),
    policy: definePolicy({ fields: { Ssn: { filter: ['Equal'], sort: false } } }, employeeSchema),
    resolveClient: (id) => (clients.has(id) ? Number(id) : undefined),
    onError: (error) => console.error(error),
  }),
);

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
process.on('SIGTERM', () => server.close());
