import { createServer, type AddressInfo, type Socket } from 'node:net';
import { mailServerRule, type MailServerRule } from '../../runtime/mail/index.js';
import type { HostResolver } from '../../runtime/outbound/index.js';

/** A resolver for tests that name no host: any lookup is a test reaching for the outside world. */
export const noLookups: HostResolver = (host) => Promise.reject(new Error(`a test tried to look up ${host}`));

/**
 * The mail server rule of tests whose SMTP and IMAP servers listen on 127.0.0.1: that address
 * is on the allow-list, as MAIL_ALLOWED_HOSTS=127.0.0.1 would put it, and no name is looked up.
 */
export const loopbackMailServers: MailServerRule = mailServerRule('127.0.0.1', noLookups);

/** A resolver answering from a table, and refusing any other name, so no test resolves an outside host. */
export function tableResolver(answers: Readonly<Record<string, string[]>>): HostResolver {
  return (host) => {
    const addresses = answers[host];
    return addresses ? Promise.resolve([...addresses]) : Promise.reject(new Error(`ENOTFOUND ${host}`));
  };
}

export interface BannerServer {
  readonly port: number;
  /** TCP connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * Some other service on 127.0.0.1: it writes `banner` to whoever connects and hangs up, as an
 * SSH server or a database would answer a mail client. Its text must never reach a tenant.
 */
export async function startBannerServer(banner: string): Promise<BannerServer> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.end(banner);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
