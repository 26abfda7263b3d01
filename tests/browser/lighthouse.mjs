// Lighthouse on every page type the outside checks cover, in Debian's chromium: accessibility
// must score 100 in the light theme and in the dark one a reader's system may ask for (a second
// chromium told the system is dark), best practices and SEO at least 98. Performance is measured and printed but
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
import { chromium } from 'playwright-core';
import { startServer, stopServer } from './verdict_server.mjs';
import { checkedPages } from './checked_pages.mjs';

const [binaryArg, reportDir] = process.argv.slice(2);
assert.ok(binaryArg, 'usage: lighthouse.mjs VERDICT_BINARY [REPORT_DIR]');
const binary = resolve(binaryArg);
const workDir = mkdtempSync(join(tmpdir(), 'verdict-lighthouse-'));
const minimum = { accessibility: 100, 'best-practices': 98, seo: 98 };
// Performance is not audited here: its timings move with the machine's load, speed is
// bench/'s, and its throttled loads and traces were half of this test's time in CI.
const categories = ['accessibility', 'best-practices', 'seo'];
const asserted = new Set(categories);
// A page is server-rendered whole, with no script that loads more: Lighthouse's waits for a
// network and a CPU at rest (a second each, for pages that keep loading) are cut to a tenth.
// Its screenshot of the whole page (1.2 s a page here) only illustrates the report; no audit
// scored here reads it.
const quickLoads = {
  extends: 'lighthouse:default',
  settings: { pauseAfterFcpMs: 100, pauseAfterLoadMs: 100, networkQuietThresholdMs: 100,
              cpuQuietThresholdMs: 100, disableFullPageScreenshot: true },
};

const { server, origin } = await startServer(binary, join(workDir, 'site.db'), workDir,
                                             { baseUrlFromOrigin: true });
const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic',
                     '--no-first-run', '--disable-background-networking', '--disable-sync'];
// Lighthouse refuses to audit a page answered with an error status, so the 404 page is left to
// the Nu checker and axe (outside_checks.mjs).
const audited = Object.entries(checkedPages).filter(([name]) => name !== 'not-found');
// A pair nobody published, and three or four tools side by side, ask search engines to leave
// them out (noindex) on purpose; on those pages the one SEO audit allowed to fail is the one
// that reads that request.
const noindexPages = new Set(['unpublished-pair', 'side-by-side']);
const failures = [];
const table = [];

// What a page sees of the reader's theme in that chromium, asked in a tab that keeps the
// system's own (playwright's `colorScheme: null`; Lighthouse's tabs emulate none either): the
// dark pass is only a dark pass if `prefers-color-scheme: dark` holds there.
async function themeSeenBy(chrome) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  try {
    const context = await browser.newContext({ colorScheme: null });
    const tab = await context.newPage();
    await tab.goto(origin + '/');
    const dark = await tab.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
    await context.close();
    return dark ? 'dark' : 'light';
  } finally {
    await browser.close();
  }
}

// One chromium per theme: the light one audits every category, the dark one (its system told
// it is dark, so every page's `prefers-color-scheme` media query holds) accessibility, the one
// the theme's colours change.
async function auditTheme(theme, themeCategories) {
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: theme === 'dark' ? [...chromeFlags, '--force-dark-mode'] : chromeFlags,
  });
  try {
    assert.equal(await themeSeenBy(chrome), theme, `the ${theme} pass's chromium shows its theme`);
    for (const [name, path] of audited) {
      const result = await lighthouse(origin + path, {
        port: chrome.port, output: 'html', logLevel: 'error', onlyCategories: themeCategories,
      }, quickLoads);
      const scores = Object.fromEntries(
        themeCategories.map((id) => [id, Math.round(result.lhr.categories[id].score * 100)]));
      table.push(`${`${name} (${theme})`.padEnd(25)} ` +
                 categories.map((id) => String(scores[id] ?? '-').padStart(5)).join(''));
      if (result.lhr.runtimeError)
        failures.push(`${name} (${path}, ${theme}): ${result.lhr.runtimeError.message}`);
      for (const id of themeCategories) {
        const lost = Object.values(result.lhr.audits)
          .filter((audit) => audit.score !== null && audit.score < 1 &&
                  result.lhr.categories[id].auditRefs.some((ref) => ref.id === audit.id && ref.weight > 0))
          .map((audit) => audit.id);
        if (id === 'seo' && noindexPages.has(name)) {
          if (lost.join() !== 'is-crawlable')
            failures.push(`${name} (${path}): seo audits failed other than the noindex: ${lost.join(', ')}`);
          continue;
        }
        if (scores[id] < minimum[id])
          failures.push(`${name} (${path}, ${theme}): ${id} ${scores[id]} < ${minimum[id]}; ` +
                        `short on ${lost.join(', ')}`);
      }
      if (reportDir) {
        mkdirSync(reportDir, { recursive: true });
        writeFileSync(join(reportDir, `lighthouse-${theme}-${name}.html`), result.report);
      }
    }
  } finally {
    await chrome.kill();
  }
}

try {
  await auditTheme('light', categories);
  await auditTheme('dark', ['accessibility']);
  console.log(`page (theme)               a11y  best   seo\n${table.join('\n')}`);
  assert.deepEqual(failures, []);
  console.log(`${audited.length} page types score 100 in accessibility in both themes, and at ` +
              'least 98 in best practices and SEO');
} finally {
  await stopServer(server);
  rmSync(workDir, { recursive: true, force: true });
}
