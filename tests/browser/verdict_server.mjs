// Starts the verdict binary on loopback and an ephemeral port for a browser test, and says
// where it listens once it does.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import assert from 'node:assert/strict';

// With baseUrlFromOrigin, the server is told its own address as its --base-url, as a
// self-hoster's would be; the port is then found free first, since the URL must name it.
export async function startServer(binary, db, cwd, { baseUrlFromOrigin = false } = {}) {
  const args = ['--db', db, '--port', '0', '--demo'];
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

// Stops the server and waits until it has exited: at its stop it copies its log into the file
// and records that it did, so its folder is only removed once it is done with it.
export async function stopServer(server) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

// Debian's chromium, headless, without the background traffic a test has no use for.
export const chromiumOptions = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};

// A person reads a page before voting from it. The server sets aside (stores, does not count)
// a vote sent less than 2 s after the page with its form was made (domain/counting.h:
// kSecondsToReadAPage), and every vote brings back a page made afresh with a new token. So
// before a click that votes, this waits until 2.1 s after the page now shown arrived; the
// server made it before then (or earlier still, when a cache kept it).
export const readingTimeMs = 2100;
export async function readerReads(page) {
  const readFor = await page.evaluate(() => {
    const [arrival] = performance.getEntriesByType('navigation');
    return arrival && arrival.responseEnd > 0 ? performance.now() - arrival.responseEnd : 0;
  });
  if (readFor < readingTimeMs) await page.waitForTimeout(readingTimeMs - readFor);
}

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

// The owner adds an editor from the shell, the password piped in; on a path with no site yet,
// the site is made first with the bundled examples (`verdict init`, as an owner trying it out).
export function addEditor(binary, db, email, password) {
  if (!existsSync(db)) {
    const made = spawnSync(binary, ['init', '--db', db, '--example-content'], { encoding: 'utf8' });
    assert.equal(made.status, 0, `verdict init failed: ${made.stderr}`);
  }
  const added = spawnSync(binary, ['user', 'add', email, '--db', db], { input: password + '\n' });
  assert.equal(added.status, 0, `verdict user add failed: ${added.stderr}`);
}

// A page on another origin (another port of this machine) with a form aimed at the desk: a
// forger's, which a signed-in browser may be made to post.
export function startForger(target) {
  const page = `<!doctype html><title>Win a prize</title>
<form method="post" action="${target}/admin/categories">
<input name="name" value="Forged"><input name="slug" value="forged"><input name="csrf" value="guess">
<button type="submit">Claim</button></form>`;
  const forger = createHttpServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(page);
  });
  return new Promise((resolve) => forger.listen(0, '127.0.0.1', () =>
    resolve({ forger, forgerOrigin: `http://127.0.0.1:${forger.address().port}` })));
}

// Leaves a screenshot for a person to look at. Screenshots are evidence, not assertions, and
// headless chromium on a busy machine now and then answers a capture with "Unable to capture
// screenshot" (seen in CI on a 375 px page of 6,000 px): so a capture is tried three times,
// then once as the viewport only, and a page that still cannot be captured is reported on
// stderr rather than failing the checks that the test does assert.
export async function keepScreenshot(page, options) {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await page.screenshot(options);
    } catch (error) {
      console.error(`screenshot ${options.path}, attempt ${attempt}: ${error.message.split('\n')[0]}`);
      await page.waitForTimeout(500 * attempt);
    }
  }
  try {
    return await page.screenshot({ path: options.path });
  } catch (error) {
    console.error(`screenshot ${options.path} not taken: ${error.message.split('\n')[0]}`);
  }
}
