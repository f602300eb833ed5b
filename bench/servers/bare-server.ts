// The baseline: a bare Express server answering the api's catalogue routes
// with JSON held in memory (sent by the benchmark, so it is byte for byte the api's).
import express from 'express';
import type { Server } from 'node:http';

type Fixture = { type: 'fixture'; products?: { _id: string }[] };

let products: { _id: string }[] = [];
const byId = new Map<string, unknown>();

const app = express();
app.disable('x-powered-by');
app.get('/api/products', (_req, res) => {
  res.json(products);
});
app.get('/api/products/:id', (req, res) => {
  const product = byId.get(req.params.id);
  if (!product) {
    res.status(404).json({ message: 'Product not found' });
    return;
  }
  res.json(product);
});

process.on('message', (msg: Fixture) => {
  if (msg.type !== 'fixture') return;
  if (msg.products) {
    products = msg.products;
    byId.clear();
    for (const p of products) byId.set(p._id, p);
  }
  process.send?.({ type: 'fixture-loaded' });
});

const server: Server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ type: 'listening', url: `http://127.0.0.1:${port}` });
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.once('disconnect', stop);
process.once('SIGTERM', stop);
