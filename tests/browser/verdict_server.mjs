// Starts the verdict binary on loopback and an ephemeral port for a browser test, and says
// where it listens once it does.
import { spawn } from 'node:child_process';

export function startServer(binary, db, cwd) {
  const server = spawn(binary, ['--db', db, '--port', '0'], { cwd });
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
