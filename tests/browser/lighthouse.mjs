// Lighthouse on every page type the outside checks cover, in Debian's chromium: accessibility,
// best practices and SEO must each score at least 98. Performance is measured and printed but
// not asserted: its score is timings, which move with the machine's load (a sanitizer build or
// a busy CI machine scores 97 on the same bytes), and a test must assert what does not vary;
// speed is measured by bench/ instead.
// The server runs with --base-url set to its own address, as a self-hoster's would be, so
// canonical links are absolute.
// Usage: node lighthouse.mjs /path/to/verdict [REPORT_DIR]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { startServer, stopServer } from './verdict_server.mjs';
import { checkedPages } from './checked_pages.mjs';

const [binaryArg, reportDir] = process.argv.slice(2);
assert.ok(binaryArg, 'usage: lighthouse.mjs VERDICT_BINARY [REPORT_DIR]');
const binary = resolve(binaryArg);
const workDir = mkdtempSync(join(tmpdir(), 'verdict-lighthouse-'));
const minimum = 98;
// Performance is not audited here: its timings move with the machine's load, speed is
// bench/'s, and its throttled loads and traces were half of this test's time in CI.
const categories = ['accessibility', 'best-practices', 'seo'];
const asserted = new Set(categories);
// A page is server-rendered whole, with no script that loads more: Lighthouse's waits for a
// network and a CPU at rest (a second each, for pages that keep loading) are cut to a tenth.
const quickLoads = {
  extends: 'lighthouse:default',
  settings: { pauseAfterFcpMs: 100, pauseAfterLoadMs: 100, networkQuietThresholdMs: 100,
              cpuQuietThresholdMs: 100 },
};

const { server, origin } = await startServer(binary, join(workDir, 'site.db'), workDir,
                                             { baseUrlFromOrigin: true });
const chrome = await chromeLauncher.launch({
  chromePath: '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic',
                '--no-first-run', '--disable-background-networking', '--disable-sync'],
});
// Lighthouse refuses to audit a page answered with an error status, so the 404 page is left to
// the Nu checker and axe (outside_checks.mjs).
const audited = Object.entries(checkedPages).filter(([name]) => name !== 'not-found');
// A pair nobody published, and three or four tools side by side, ask search engines to leave
// them out (noindex) on purpose; on those pages the one SEO audit allowed to fail is the one
// that reads that request.
const noindexPages = new Set(['unpublished-pair', 'side-by-side']);
const failures = [];
const table = [];
try {
  for (const [name, path] of audited) {
    const result = await lighthouse(origin + path, {
      port: chrome.port, output: 'html', logLevel: 'error', onlyCategories: categories,
    }, quickLoads);
    const scores = Object.fromEntries(
      categories.map((id) => [id, Math.round(result.lhr.categories[id].score * 100)]));
    table.push(`${name.padEnd(18)} ${categories.map((id) => String(scores[id]).padStart(4)).join('')}`);
    if (result.lhr.runtimeError) failures.push(`${name} (${path}): ${result.lhr.runtimeError.message}`);
    for (const id of categories.filter((category) => asserted.has(category))) {
      const lost = Object.values(result.lhr.audits)
        .filter((audit) => audit.score !== null && audit.score < 1 &&
                result.lhr.categories[id].auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0))
        .map((audit) => audit.id);
      if (id === 'seo' && noindexPages.has(name)) {
        if (lost.join() !== 'is-crawlable')
          failures.push(`${name} (${path}): seo audits failed other than the noindex: ${lost.join(', ')}`);
        continue;
      }
      if (scores[id] < minimum)
        failures.push(`${name} (${path}): ${id} ${scores[id]} < ${minimum}; short on ${lost.join(', ')}`);
    }
    if (reportDir) {
      mkdirSync(reportDir, { recursive: true });
      writeFileSync(join(reportDir, `lighthouse-${name}.html`), result.report);
    }
  }
  console.log(`page               a11y best  seo\n${table.join('\n')}`);
  assert.deepEqual(failures, []);
  console.log(`${table.length} page types score at least ${minimum} in accessibility, best ` +
              'practices and SEO');
} finally {
  await chrome.kill();
  await stopServer(server);
  rmSync(workDir, { recursive: true, force: true });
}
