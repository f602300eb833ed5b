import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { AppConfig } from '@shop/core';
import type { UploadResult } from '@shop/core/contract';
import { badRequest, UserError } from '@shop/core';

/** Formats a browser shows and sharp decodes; SVG is left out on purpose (it can carry script). */
const EXTENSIONS = { jpeg: 'jpg', png: 'png', webp: 'webp', gif: 'gif' } as const;
type AllowedFormat = keyof typeof EXTENSIONS;

// A small file can still declare a huge canvas; refuse it before decoding.
const MAX_PIXELS = 40_000_000;

export const NOT_AN_IMAGE = 'Only JPEG, PNG, WebP or GIF images are allowed';

const isAllowed = (format: string | undefined): format is AllowedFormat =>
  format !== undefined && Object.hasOwn(EXTENSIONS, format);

/**
 * Checks the bytes by decoding them (the client's name and MIME type are not
 * trusted), then stores a re-encoded copy under a random name with the extension of
 * the real format. Re-encoding keeps only pixels: camera metadata (location, serial
 * numbers), comments and anything appended to the file are dropped, and what is served
 * is an image sharp wrote, whatever the upload carried. The orientation a camera
 * recorded is applied to the pixels first.
 */
export async function storeImage(config: Pick<AppConfig, 'uploadsDir'>, data: Buffer): Promise<UploadResult> {
  const format = await detectImageFormat(data);
  const clean = await reencode(data, format);
  const dir = path.resolve(config.uploadsDir);
  await mkdir(dir, { recursive: true });
  const file = `${randomBytes(16).toString('hex')}.${EXTENSIONS[format]}`;
  await writeFile(path.join(dir, file), clean, { flag: 'wx' });
  return { message: 'Image uploaded', image: `/uploads/${file}` };
}

async function reencode(data: Buffer, format: AllowedFormat): Promise<Buffer> {
  const animated = format === 'gif' || format === 'webp';
  const image = sharp(data, { limitInputPixels: MAX_PIXELS, animated }).rotate();
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    case 'png':
      return image.png().toBuffer();
    case 'webp':
      return image.webp({ quality: 90 }).toBuffer();
    case 'gif':
      return image.gif().toBuffer();
  }
}

async function detectImageFormat(data: Buffer): Promise<AllowedFormat> {
  let format: string | undefined;
  try {
    const meta = await sharp(data).metadata();
    format = meta.format;
    if (!isAllowed(format)) throw badRequest(NOT_AN_IMAGE);
    if (meta.width * meta.height * (meta.pages ?? 1) > MAX_PIXELS) throw badRequest('Image dimensions are too large');
    // Decode the pixels too: a valid header on truncated or corrupt data is refused here.
    await sharp(data, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).stats();
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw badRequest(isAllowed(format) ? 'The image file is damaged or incomplete' : NOT_AN_IMAGE);
  }
  return format;
}
