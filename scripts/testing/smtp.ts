import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createServer } from 'node:net';

/** A real SMTP server on loopback that keeps what it receives, for mail tests. */
export async function startSmtpServer(port?: number): Promise<{ port: number; url: string; messages: ParsedMail[]; stop(): Promise<void> }> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  server.on('error', () => {});
  const chosen = port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.listen(chosen, '127.0.0.1', () => resolve());
    server.once('error', reject);
  });
  return {
    port: chosen,
    url: `smtp://127.0.0.1:${chosen}`,
    messages,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.once('error', reject);
  });
}
