// `npm run docs:serve`: serves the built docs-site/ on 127.0.0.1 and prints
// its address. PORT chooses the port (default 8080; 0 picks a free one).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('..', import.meta.url)), 'docs-site');
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A static file server for `dir` that never serves a file outside it. */
export function serveDirectory(dir, port = 8080) {
  const server = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end('bad request');
      return;
    }
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if (file !== dir && !file.startsWith(dir + sep)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const port = process.env.PORT === undefined ? 8080 : Number(process.env.PORT);
  serveDirectory(ROOT, port).then(
    (server) => {
      const address = server.address();
      console.log(
        `docs: serving docs-site/ at http://127.0.0.1:${address.port}/ (playground: http://127.0.0.1:${address.port}/playground/index.html); Ctrl+C stops`,
      );
    },
    (error) => {
      console.error(`docs: cannot listen on 127.0.0.1:${port}: ${error.message} (set PORT to another port)`);
      process.exitCode = 1;
    },
  );
}
