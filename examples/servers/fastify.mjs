// The employee list on Fastify 5: node examples/servers/fastify.mjs (PORT, API_TOKEN, LIST_SECRET from the environment).
import Fastify from 'fastify';
import { listHandler } from 'wepql/fastify';
import { createMemoryDataSource } from 'wepql/sources';
import { createTokenCodec } from 'wepql/list';
import { definePolicy, employeeSchema } from 'wepql';
// The sample ships with the package: imported by its name, it loads in a clone and in an app that installed wepql.
import employees from 'wepql/examples/employees.json' with { type: 'json' };

const clients = new Set(employees.map((e) => String(e.ClientId)));
const token = process.env.API_TOKEN ?? 'demo-token';

const app = Fastify();
// Authentication stays yours: here a bearer token, answered like the reference server.
app.addHook('onRequest', async (request, reply) => {
  if (request.headers.authorization !== `Bearer ${token}`) {
    return reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send();
  }
});
app.get(
  '/api/public/clients/:client_id/employees',
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
    onError: (error) => app.log.error(error),
  }),
);

const url = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${url}`);
