// Every page type checked by tools the project did not write: the Nu HTML Checker (vnu.jar,
// on Java) must report no error, and axe-core, run inside Debian's chromium at a phone and a
// desktop width, no violation. Votes and picks are cast first so the pages show their bars,
// intervals, voter-only parts and set-aside votes, not only their empty states; the Nu checker
// reads each page as a reader without a cookie gets it and as that voter gets it.
// Usage: node outside_checks.mjs /path/to/verdict
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumOptions, startServer, stopServer } from './verdict_server.mjs';
import { checkedPages, voteAsAReader } from './checked_pages.mjs';

const require = createRequire(import.meta.url);
const [binaryArg] = process.argv.slice(2);
assert.ok(binaryArg, 'usage: outside_checks.mjs VERDICT_BINARY');
const binary = resolve(binaryArg);
const workDir = mkdtempSync(join(tmpdir(), 'verdict-outside-'));

// The Nu checker's report on the saved pages; it writes its JSON report to stderr.
function nuReport(files) {
  const run = spawnSync(
    'java', ['-jar', require.resolve('vnu-jar/build/dist/vnu.jar'), '--format', 'json',
             '--exit-zero-always', ...Object.values(files)],
    { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (run.error) throw run.error;
  return JSON.parse(run.stderr);
}

const { server, origin } = await startServer(binary, join(workDir, 'site.db'), workDir);
const browser = await chromium.launch(chromiumOptions);
const failures = [];
try {
  // The site's CSP forbids every script; axe is the test's own, let in past it.
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  // A reader who voted and picked: the pages then carry bars, tallies, "your vote", and votes
  // set aside with why.
  await voteAsAReader(page, origin);
  const voter = (await context.cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');

  const files = {};
  const paths = {};
  for (const [name, path] of Object.entries(checkedPages)) {
    for (const [as, headers] of [[name, {}], [`${name}-voter`, { Cookie: voter }]]) {
      const answer = await fetch(origin + path, { headers });
      const file = join(workDir, `${as}.html`);
      writeFileSync(file, await answer.text());
      files[as] = file;
      paths[as] = path;
    }
  }
  const report = nuReport(files);
  for (const message of report.messages) {
    // Errors and fatal faults fail; the checker's warnings and notes are advice.
    if (message.type !== 'error' && message.subType !== 'fatal') continue;
    const name = Object.keys(files).find((key) => message.url.endsWith(`/${key}.html`));
    failures.push(`Nu checker, ${name} (${paths[name]}) line ${message.lastLine}: ` +
                  `${message.message} — ${(message.extract || '').trim()}`);
  }

  // In both themes: the light one, and the dark one a reader's system may ask for.
  for (const theme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: theme });
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, path] of Object.entries(checkedPages)) {
        await page.goto(origin + path);
        await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
        const violations = await page.evaluate(async () => (await window.axe.run(document)).violations);
        for (const violation of violations)
          for (const node of violation.nodes)
            failures.push(`axe at ${width}px, ${theme}, ${name} (${path}): ${violation.id} ` +
                          `(${violation.impact}) ${violation.help} — ${node.target.join(' ')}`);
      }
    }
  }
  assert.deepEqual(failures, []);
  console.log(`${Object.keys(checkedPages).length} page types: 0 Nu HTML Checker errors (without ` +
              'a cookie and as a voter), ' +
              '0 axe-core violations at 375 and 1280 px, in the light and the dark theme');
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(workDir, { recursive: true, force: true });
}

