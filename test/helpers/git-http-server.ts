/**
 * A forge's git endpoint on loopback: `git http-backend` (the CGI program git ships) behind
 * a small Node HTTP server that asks for basic-auth credentials, as GitHub and GitLab do
 * over HTTPS. Pushes, force-pushes and wrong tokens go through real git end to end.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServer {
  /** Base URL; a repository `name.git` under the root is at `${url}/name.git`. */
  url: string;
  /** Authorization headers seen, in order (to check the token went as basic auth). */
  authorizations: (string | undefined)[];
  close(): Promise<void>;
}

export async function startGitHttpServer(options: {
  projectRoot: string;
  username: string;
  password: string;
}): Promise<GitHttpServer> {
  const authorizations: (string | undefined)[] = [];
  const expected = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  const server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'content-type': 'text/plain' });
      res.end('HTTP Basic: Access denied\n');
      req.resume();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: options.projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.replace(/^\?/, ''),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        REMOTE_USER: options.username,
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    cgi.on('close', () => {
      const output = Buffer.concat(chunks);
      let split = output.indexOf('\r\n\r\n');
      let gap = 4;
      if (split < 0) [split, gap] = [output.indexOf('\n\n'), 2];
      const headerText = output.subarray(0, Math.max(split, 0)).toString('latin1');
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of headerText.split(/\r?\n/)) {
        const at = line.indexOf(':');
        if (at < 0) continue;
        const name = line.slice(0, at).trim();
        const value = line.slice(at + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.end(split < 0 ? output : output.subarray(split + gap));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    authorizations,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
