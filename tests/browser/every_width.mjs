// Every page type at 320, 375, 768 and 1280 px in a real browser (Debian's chromium via
// playwright-core), as a reader who has voted (counted and set-aside votes, with their notes):
// none may scroll sideways. Leaves a phone screenshot of each.
// Usage: node every_width.mjs /path/to/verdict SCREENSHOT_DIR
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumOptions, startServer } from './verdict_server.mjs';
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
      if (width === 375)
        await page.screenshot({ path: join(screenshotDir, `width-${name}-375.png`), fullPage: true });
    }
  }
  assert.deepEqual(failures, []);
  console.log(`every page type fits at 320, 375, 768 and 1280 px; screenshots in ${screenshotDir}`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(workDir, { recursive: true, force: true });
}
