import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { AppConfig } from './config.ts';

export type Mail = { to: string; subject: string; text: string; html?: string };
export type Mailer = { send(mail: Mail): Promise<{ messageId: string; file?: string }>; close(): void };

/**
 * Sends e-mail over SMTP (SMTP_URL). In development and tests without SMTP_URL, each
 * message is written as an .eml file under MAIL_DIR instead (and the caller logs it).
 * Production requires SMTP_URL (see config).
 */
export function createMailer(config: AppConfig): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl, { from: config.mailFrom });
    return {
      async send(mail) {
        const info = await transport.sendMail({ from: config.mailFrom, ...mail });
        return { messageId: info.messageId };
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: config.mailFrom, ...mail });
      const dir = path.resolve(config.mailDir);
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      await writeFile(file, info.message as Buffer);
      return { messageId: info.messageId, file };
    },
    close: () => transport.close(),
  };
}
