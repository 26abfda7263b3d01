// Starts the verdict binary on loopback and an ephemeral port for a browser test, and says
// where it listens once it does.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

// With baseUrlFromOrigin, the server is told its own address as its --base-url, as a
// self-hoster's would be; the port is then found free first, since the URL must name it.
export async function startServer(binary, db, cwd, { baseUrlFromOrigin = false } = {}) {
  const args = ['--db', db, '--port', '0'];
  if (baseUrlFromOrigin) {
    const port = await freeLoopbackPort();
    args.splice(3, 1, String(port));
    args.push('--base-url', `http://127.0.0.1:${port}`);
  }
  const server = spawn(binary, args, { cwd });
  return new Promise((resolve, reject) => {
    let log = '';
    server.stderr.on('data', (chunk) => {
      log += chunk;
      const match = log.match(/serving (http:\/\/127\.0\.0\.1:\d+)\//);
      if (match) resolve({ server, origin: match[1] });
    });
    server.on('exit', (code) => reject(new Error(`verdict exited ${code}: ${log}`)));
  });
}

// Debian's chromium, headless, without the background traffic a test has no use for.
export const chromiumOptions = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

// A port the kernel just handed out on loopback and that nothing holds now.
function freeLoopbackPort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
