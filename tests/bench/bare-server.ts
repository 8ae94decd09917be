// The ceiling of the HTTP benchmark: a bare Fastify route answering a constant.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { data: [{ ok: true }] };
app.get('/constant', async () => body);
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`${address}\n`);
