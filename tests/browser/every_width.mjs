// Every page type at 320, 375, 768 and 1280 px in a real browser (Debian's chromium via
// playwright-core), as a reader who has voted (counted and set-aside votes, with their notes):
// none may scroll sideways. Leaves a phone and a desktop screenshot of each.
// Usage: node every_width.mjs /path/to/verdict SCREENSHOT_DIR
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumOptions, keepScreenshot, startServer } from './verdict_server.mjs';
import { checkedPages, voteAsAReader } from './checked_pages.mjs';

const [binaryArg, screenshotDir] = process.argv.slice(2);
assert.ok(binaryArg && screenshotDir, 'usage: every_width.mjs VERDICT_BINARY SCREENSHOT_DIR');
const binary = resolve(binaryArg);
mkdirSync(screenshotDir, { recursive: true });
const workDir = mkdtempSync(join(tmpdir(), 'verdict-widths-'));

// Every page type the outside tools check, and the desk's sign-in page.
const pages = { ...checkedPages, 'sign-in': '/admin/login' };

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
  assert.deepEqual(failures, []);
  console.log(`every page type fits at 320, 375, 768 and 1280 px; screenshots in ${screenshotDir}`);

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
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(workDir, { recursive: true, force: true });
}
