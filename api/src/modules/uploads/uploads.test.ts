import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import sharp from 'sharp';
import { createApiTestKit, type ApiTestKit, type TestUser } from '../../testing/api-test-kit.ts';

let kit: ApiTestKit;
let small: ApiTestKit;
let admin: TestUser;
let alice: TestUser;
let png: Buffer;

beforeAll(async () => {
  [kit, small] = await Promise.all([createApiTestKit(), createApiTestKit({ env: { UPLOAD_MAX_BYTES: '2000' } })]);
  admin = await kit.createUser({ name: 'Admin', isAdmin: true });
  alice = await kit.createUser({ name: 'Alice' });
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } }).png().toBuffer();
});
afterAll(async () => {
  for (const k of [kit, small]) {
    if (!k) continue;
    await rm(path.resolve(k.env.config.uploadsDir), { recursive: true, force: true });
    await k.close();
  }
});

const storedFiles = async (k: ApiTestKit) => readdir(path.resolve(k.env.config.uploadsDir)).catch(() => [] as string[]);
const NOT_AN_IMAGE = /Only JPEG, PNG, WebP or GIF images are allowed/;

describe('POST /api/uploads', () => {
  it('stores a real PNG under a random name and serves the same picture at the returned path, never sniffed, sandboxed', async () => {
    const res = await (await kit.as(admin)).post('/api/uploads').attach('image', png, { filename: 'My Photo.png', contentType: 'image/png' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: 'Image uploaded', image: expect.stringMatching(/^\/uploads\/[0-9a-f]{32}\.png$/) });
    const served = await request(kit.app).get(res.body.image).buffer(true);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/png/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toMatch(/^sandbox;/);
    const [sent, got] = await Promise.all([sharp(png).raw().toBuffer(), sharp(served.body as Buffer).raw().toBuffer()]);
    expect(Buffer.compare(got, sent)).toBe(0);
  });

  it('stores a re-encoded copy: camera metadata and bytes appended to the file are gone, the orientation applied', async () => {
    const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#c33' } })
      .jpeg()
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'GPS-52.5200N-13.4050E', Artist: 'serial-XJ-9000' } } })
      .toBuffer();
    const withPayload = Buffer.concat([photo, Buffer.from('<script>alert(1)</script>')]);
    const res = await (await kit.as(admin)).post('/api/uploads').attach('image', withPayload, { filename: 'photo.jpg' });
    expect(res.status).toBe(201);
    const served = (await request(kit.app).get(res.body.image).buffer(true)).body as Buffer;
    const meta = await sharp(served).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([20, 40]); // rotated by the recorded orientation
    expect(served.toString('latin1')).not.toMatch(/GPS-52|serial-XJ|<script>/);
  });

  it('names the file after the format it really has, not the name the client sent', async () => {
    const jpeg = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } }).jpeg().toBuffer();
    const res = await (await kit.as(admin)).post('/api/uploads').attach('image', jpeg, { filename: '../../evil.png', contentType: 'image/png' });
    expect(res.status).toBe(201);
    expect(res.body.image).toMatch(/^\/uploads\/[0-9a-f]{32}\.jpg$/);
    const served = await request(kit.app).get(res.body.image);
    expect(served.headers['content-type']).toMatch(/^image\/jpeg/);
  });

  it('accepts WebP and GIF too', async () => {
    const base = sharp({ create: { width: 8, height: 8, channels: 4, background: '#00ff0080' } });
    for (const [buf, ext] of [[await base.clone().webp().toBuffer(), 'webp'], [await base.clone().gif().toBuffer(), 'gif']] as const) {
      const res = await (await kit.as(admin)).post('/api/uploads').attach('image', buf, { filename: `x.${ext}` });
      expect(res.status, ext).toBe(201);
      expect(res.body.image).toMatch(new RegExp(`\\.${ext}$`));
    }
  });

  it('refuses anything that does not decode as an allowed image, storing nothing', async () => {
    const before = await storedFiles(kit);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    const tiff = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).tiff().toBuffer();
    const cases: [string, Buffer, string, RegExp][] = [
      ['text named x.png', Buffer.from('hello, this is not an image'), 'x.png', NOT_AN_IMAGE],
      ['svg', svg, 'logo.svg', NOT_AN_IMAGE],
      ['svg named as png', svg, 'logo.png', NOT_AN_IMAGE],
      ['tiff', tiff, 'scan.tiff', NOT_AN_IMAGE],
      ['html named x.gif', Buffer.from('<html><script>alert(1)</script></html>'), 'x.gif', NOT_AN_IMAGE],
      ['truncated png', png.subarray(0, png.length - 30), 'cut.png', /damaged or incomplete/],
    ];
    const as = await kit.as(admin);
    for (const [label, data, filename, message] of cases) {
      const res = await as.post('/api/uploads').attach('image', data, { filename, contentType: 'image/png' });
      expect(res.status, label).toBe(400);
      expect(res.body.message, label).toMatch(message);
    }
    expect(await storedFiles(kit)).toEqual(before);
  });

  it('answers 400 with a message when there is no file, the field is wrong, or there are too many parts', async () => {
    const as = await kit.as(admin);
    const before = await storedFiles(kit);
    const noFile = await as.post('/api/uploads').field('note', 'hello');
    expect(noFile.status).toBe(400);
    expect(noFile.body).toEqual({ message: 'No image file uploaded' });

    const json = await as.post('/api/uploads').send({ image: 'data:image/png;base64,AAAA' });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ message: 'No image file uploaded' });

    const empty = await as.post('/api/uploads').attach('image', Buffer.alloc(0), { filename: 'empty.png' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ message: 'No image file uploaded' });

    const wrongField = await as.post('/api/uploads').attach('file', png, { filename: 'a.png' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.message).toMatch(/field 'image'/);

    const twoFiles = await as.post('/api/uploads').attach('image', png, { filename: 'a.png' }).attach('image', png, { filename: 'b.png' });
    expect(twoFiles.status).toBe(400);
    expect(twoFiles.body.message).toMatch(/exactly one file/);

    let many = as.post('/api/uploads');
    for (let i = 0; i < 20; i++) many = many.field(`f${i}`, 'x');
    const tooMany = await many.attach('image', png, { filename: 'a.png' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/Too many/);

    const broken = await as.post('/api/uploads').set('content-type', 'multipart/form-data; boundary=xyz').send('--xyz\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ message: 'Malformed multipart upload' });

    expect(await storedFiles(kit)).toEqual(before);
  });

  it('answers 413 with a message for a file over UPLOAD_MAX_BYTES, storing nothing', async () => {
    const big = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
    expect(big.length).toBeGreaterThan(2000);
    const smallAdmin = await small.createUser({ isAdmin: true });
    const res = await (await small.as(smallAdmin)).post('/api/uploads').attach('image', big, { filename: 'big.png' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'The image is too large (at most 2 KB)' });
    expect(await storedFiles(small)).toEqual([]);

    const tiny = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } }).png().toBuffer();
    expect(tiny.length).toBeLessThan(2000);
    expect((await (await small.as(smallAdmin)).post('/api/uploads').attach('image', tiny, { filename: 't.png' })).status).toBe(201);
  });

  it('refuses guests (401) and plain users (403), storing nothing', async () => {
    const before = await storedFiles(kit);
    const guest = await (await kit.as(null)).post('/api/uploads').attach('image', png, { filename: 'a.png' });
    expect(guest.status).toBe(401);
    expect(guest.body.message).toEqual(expect.any(String));
    const user = await (await kit.as(alice)).post('/api/uploads').attach('image', png, { filename: 'a.png' });
    expect(user.status).toBe(403);
    expect(user.body).toEqual({ message: 'Not authorized as an admin' });
    expect(await storedFiles(kit)).toEqual(before);
  });
});
