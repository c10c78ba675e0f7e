// Self-signed certificates made per test run with the openssl command line, so that the
// delivery tests speak real TLS to receivers on 127.0.0.1 under fake host names.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
}

export async function makeCertificate(hostname: string): Promise<TestCertificate> {
  const folder = await mkdtemp(join(tmpdir(), 'cadence-webhook-cert-'));
  try {
    const keyFile = join(folder, 'key.pem');
    const certFile = join(folder, 'cert.pem');
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-nodes',
      '-days',
      '1',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-subj',
      `/CN=${hostname}`,
      '-addext',
      // An address gets an IP entry: receivers addressed as https://127.0.0.1 need one.
      isIP(hostname) ? `subjectAltName=IP:${hostname}` : `subjectAltName=DNS:${hostname}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]);
    return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
