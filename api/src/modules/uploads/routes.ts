import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import type { AppDeps } from '../../deps.ts';
import { UserError, badRequest } from '@shop/core';
import { requireAdmin } from '../../middleware/auth.ts';
import { storeImage } from './service.ts';

const FIELD = 'image';

/** Multer's errors carry no HTTP status; give each a 4xx and a message the admin can act on. */
function uploadError(err: unknown, maxBytes: number): UserError {
  const code = (err as { code?: unknown }).code;
  if (err instanceof multer.MulterError) {
    if (code === 'LIMIT_FILE_SIZE') {
      return new UserError(413, `The image is too large (at most ${formatBytes(maxBytes)})`);
    }
    if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT') {
      return badRequest(`Send exactly one file, in the form field '${FIELD}'`);
    }
    return badRequest(`Upload refused: ${err.message}`);
  }
  // busboy's own parse errors (no boundary, truncated body, ...).
  return badRequest('Malformed multipart upload');
}

function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

export function uploadRoutes(deps: AppDeps): Router {
  const { config } = deps;
  const router = Router();
  // Held in memory: the limit is small and the bytes are decoded before anything is written.
  const parser = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 5, parts: 6, fieldSize: 1024, fieldNameSize: 100, headerPairs: 50 },
  }).single(FIELD);

  const parseUpload: RequestHandler = (req, res, next) => {
    parser(req, res, (err?: unknown) => next(err ? uploadError(err, config.uploadMaxBytes) : undefined));
  };

  router.post('/', requireAdmin, parseUpload, async (req, res) => {
    if (!req.file?.buffer?.length) throw badRequest('No image file uploaded');
    res.status(201).json(await storeImage(config, req.file.buffer));
  });

  return router;
}
