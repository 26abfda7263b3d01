// Every page type at 320, 375, 768 and 1280 px in a real browser (Debian's chromium via
// playwright-core), as a reader who has voted (counted and set-aside votes, with their notes):
// none may scroll sideways. Leaves a phone and a desktop screenshot of each. Then the same pages
// of a site whose every text field holds one unbroken word as long as the field takes (20,000
// characters, or the field's own limit): none may scroll sideways at 375 or 1280 px either.
// Usage: node every_width.mjs /path/to/verdict SCREENSHOT_DIR
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumOptions, keepScreenshot, startServer, stopServer } from './verdict_server.mjs';
import { checkedPages, voteAsAReader } from './checked_pages.mjs';

const [binaryArg, screenshotDir] = process.argv.slice(2);
assert.ok(binaryArg && screenshotDir, 'usage: every_width.mjs VERDICT_BINARY SCREENSHOT_DIR');
const binary = resolve(binaryArg);
mkdirSync(screenshotDir, { recursive: true });
const workDir = mkdtempSync(join(tmpdir(), 'verdict-widths-'));

// Every page type the outside tools check, and the desk's sign-in page.
const pages = { ...checkedPages, 'sign-in': '/admin/login' };

// The bundled content with every text a page shows made one word of `length` characters, but
// the fields that name things (addresses, dates, verdicts, pricing models); a field whose limit
// is lower holds a word as long as the limit. Imported into a new site at `db`.
function importLongWords(db, length = 20000) {
  const source = join(dirname(fileURLToPath(import.meta.url)), '../../content/verdict.json');
  const content = JSON.parse(readFileSync(source, 'utf8'));
  const names = new Set(['slug', 'a', 'b', 'tool', 'reviewer', 'category', 'verdict', 'entry',
                         'published_on', 'pricing_checked_on']);
  const limits = {}; // "tools.name" → the most the field takes, from the import's own refusals
  const word = (n) => 'w'.repeat(n);
  const fill = (value, path) => {
    if (Array.isArray(value)) return value.map((item) => fill(item, path));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) =>
        [key, names.has(key) ? item : fill(item, path ? `${path}.${key}` : key)]));
    if (typeof value !== 'string') return value;
    const n = Math.min(length, limits[path] ?? length);
    if (path.endsWith('url') || path.endsWith('pricing_source')) return `https://example.com/${word(n - 20)}`;
    if (path.endsWith('bottom_line')) return `Ship with A if ${word(n / 2 - 40)}\nShip with B if ${word(n / 2 - 40)}`;
    return word(n);
  };
  const file = join(workDir, 'long-words.json');
  const made = spawnSync(binary, ['init', '--db', db, '--empty'], { encoding: 'utf8' });
  assert.equal(made.status, 0, `verdict init failed: ${made.stderr}`);
  let refused = '';
  for (let attempt = 0; attempt < 2; ++attempt) {
    writeFileSync(file, JSON.stringify(fill(content, '')));
    const run = spawnSync(binary, ['import', '--db', db, file], { encoding: 'utf8' });
    if (run.status === 0) return;
    refused = run.stderr;
    for (const match of run.stderr.matchAll(/: ([a-z_]+)\[\d+\]\.([a-z_]+): is longer than (\d+)/g))
      limits[`${match[1]}.${match[2]}`] = Number(match[3]);
    for (const match of run.stderr.matchAll(/: (site)\.([a-z_]+): is longer than (\d+)/g))
      limits[`${match[1]}.${match[2]}`] = Number(match[3]);
  }
  assert.fail(`the long-word content was not imported: ${refused.slice(0, 2000)}`);
}

const { server, origin } = await startServer(binary, join(workDir, 'site.db'), workDir);
const browser = await chromium.launch(chromiumOptions);
const failures = [];
try {
  const page = await browser.newPage();
  await voteAsAReader(page, origin);
  for (const width of [320, 375, 768, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(origin + path);
      const overflow = await page.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) failures.push(`${name} (${path}) scrolls sideways by ${overflow}px at ${width}px`);
      if (width === 375 || width === 1280)
        await keepScreenshot(page, { path: join(screenshotDir, `width-${name}-${width}.png`),
                                fullPage: true });
    }
  }
  // The dark theme, as a reader's system asks for it: a screenshot of each page type.
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of Object.entries(pages)) {
      await page.goto(origin + path);
      await keepScreenshot(page, { path: join(screenshotDir, `dark-${name}-${width}.png`),
                              fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(failures, []);
  console.log(`every page type fits at 320, 375, 768 and 1280 px; screenshots in ${screenshotDir}`);

  // A tool's page uses a desktop's width: its pricing read beside its card, not under it.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(origin + checkedPages.tool);
  const toolLayout = await page.evaluate(() => ({
    card: document.querySelector('.tool-card').getBoundingClientRect(),
    pricing: document.querySelector('.pricing').getBoundingClientRect() }));
  assert.ok(toolLayout.pricing.left >= toolLayout.card.right && toolLayout.pricing.top < toolLayout.card.bottom,
            'at 1280px the tool page puts its pricing read beside its card');

  // A comparison on a phone (375 × 667): its verdict and the head-to-head vote within the first
  // two screens, no name broken inside a word, and the persona quotes folded behind a line
  // that opens with a tap, no script needed.
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto(origin + checkedPages.comparison);
  const screens = await page.evaluate(() => {
    const bottom = (selector) => document.querySelector(selector).getBoundingClientRect().bottom
      + window.scrollY;
    return { statement: bottom('.glance-statement'), pick: bottom('.h2h .pick.side-b'),
             header: bottom('.site-header'),
             firstAnswer: bottom('.glance-bottom-line li'),
             answer: bottom('.glance-bottom-line') };
  });
  await keepScreenshot(page, { path: join(screenshotDir, 'comparison-first-screens-375.png'),
                          fullPage: true, clip: { x: 0, y: 0, width: 375, height: 2 * 667 } });
  // The answer first: the editor's bottom line starts on the first screen, ends by the second.
  assert.ok(screens.firstAnswer <= 667, `the bottom line's first line ends at ${screens.firstAnswer}px`);
  assert.ok(screens.answer <= 2 * 667, `the bottom line ends at ${screens.answer}px`);
  assert.ok(screens.statement <= 2 * 667, `the verdict ends at ${screens.statement}px`);
  assert.ok(screens.pick <= 2 * 667, `the head-to-head vote ends at ${screens.pick}px`);
  assert.ok(screens.header <= 100, `the header takes ${screens.header}px`);
  // The header's search box shows its whole placeholder on a phone.
  const search = await page.evaluate(() => {
    const input = document.querySelector('.site-search input');
    const style = getComputedStyle(input);
    const context = document.createElement('canvas').getContext('2d');
    context.font = `${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { room, needed: context.measureText(input.placeholder).width };
  });
  assert.ok(search.needed <= search.room,
            `the search box's placeholder needs ${search.needed}px of ${search.room}px`);
  const brokenNames = await page.evaluate(() => {
    const broken = [];
    for (const element of document.querySelectorAll('.pick, .tool-name, .glance-table th, h1')) {
      const text = element.firstChild && element.textContent;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of node.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(`${match[0]} in "${text.trim()}"`);
        }
      }
    }
    return broken;
  });
  assert.deepEqual(brokenNames, [], 'a word of a name is broken across lines');
  const quote = page.locator('.quote-fold').first();
  assert.equal(await quote.locator('blockquote').isVisible(), false, 'a quote shows folded');
  await quote.locator('summary').click();
  assert.equal(await quote.locator('blockquote').isVisible(), true, 'a tap opens the quote');

  // One unbroken word in every field: every page still fits the screen.
  const longDb = join(workDir, 'long-words.db');
  importLongWords(longDb);
  const long = await startServer(binary, longDb, workDir);
  try {
    const longFailures = [];
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, path] of Object.entries(pages)) {
        await page.goto(long.origin + path);
        const overflow = await page.evaluate(() =>
          document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0)
          longFailures.push(`${name} (${path}) with long words scrolls sideways by ${overflow}px at ${width}px`);
        if (['tool', 'comparison', 'alternatives'].includes(name))
          await keepScreenshot(page, { path: join(screenshotDir, `long-words-${name}-${width}.png`),
                                  fullPage: true, clip: { x: 0, y: 0, width, height: 1600 } });
      }
    }
    assert.deepEqual(longFailures, []);
    console.log('with a 20,000-character word in every field, every page type fits at 375 and 1280 px');
  } finally {
    await stopServer(long.server);
  }
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(workDir, { recursive: true, force: true });
}
