// A reader in a real browser (Debian's chromium via playwright-core): opens a comparison,
// clicks Ship, sees the Community count change, picks a side head-to-head, votes and searches
// with JavaScript off, and leaves screenshots at phone and desktop width.
// Usage: node reader_votes.mjs /path/to/verdict SCREENSHOT_DIR
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumOptions, startServer } from './verdict_server.mjs';

const [binary, screenshotDir] = process.argv.slice(2);
assert.ok(binary && screenshotDir, 'usage: reader_votes.mjs VERDICT_BINARY SCREENSHOT_DIR');
mkdirSync(screenshotDir, { recursive: true });
const workDir = mkdtempSync(join(tmpdir(), 'verdict-browser-'));

const { server, origin } = await startServer(binary, join(workDir, 'site.db'), workDir);
const browser = await chromium.launch(chromiumOptions);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const path = '/compare/cursor-background-agent-vs-codestral-2-1';
  await page.goto(origin + path);
  assert.equal(await page.locator('h1').textContent(), 'Cursor Background Agent vs Codestral 2.1');

  const community = page.locator('[data-community="codestral-2-1"]');
  assert.equal((await community.textContent()).trim(), '—');

  await page.getByRole('button', { name: 'Ship Codestral 2.1' }).click();
  await page.waitForURL(`**${path}#tool-codestral-2-1`);
  assert.equal((await community.textContent()).trim(), '100% · 1 vote');
  assert.equal(await page.getByRole('button', { name: 'Ship Codestral 2.1' }).getAttribute('aria-pressed'), 'true');

  // Changing the vote by keyboard alone: focus Skip and press Enter.
  await page.getByRole('button', { name: 'Skip Codestral 2.1' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForLoadState('load');
  await page.waitForFunction(() =>
    document.querySelector('[data-community="codestral-2-1"]').textContent.trim() === '0% · 1 vote');

  await page.getByRole('button', { name: 'Cursor Background Agent', exact: true }).click();
  await page.waitForURL(`**${path}#community`);
  assert.equal((await page.locator('[data-picks="a"]').textContent()).trim(), '100% · 1 vote');

  // With JavaScript turned off, a new reader's plain HTML form still votes.
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto(origin + path);
  await plain.getByRole('button', { name: 'Ship Cursor Background Agent' }).click();
  await plain.waitForURL(`**${path}#tool-cursor-background-agent`);
  assert.equal((await plain.locator('[data-community="cursor-background-agent"]').textContent()).trim(),
               '100% · 1 vote');
  // The header's search box is a plain GET form too: a search, then its best result.
  const searchBox = plain.getByRole('searchbox', { name: 'Search tools and reviews' });
  await searchBox.fill('codestral');
  await searchBox.press('Enter');
  await plain.waitForURL('**/search?q=codestral');
  await plain.getByRole('link', { name: 'Codestral 2.1', exact: true }).click();
  await plain.waitForURL('**/tools/codestral-2-1');
  await noScript.close();

  await page.screenshot({ path: join(screenshotDir, 'comparison-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(origin + path);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page scrolls sideways on a phone by ${overflow}px`);
  await page.screenshot({ path: join(screenshotDir, 'comparison-phone.png'), fullPage: true });
  await page.goto(origin + '/');
  await page.screenshot({ path: join(screenshotDir, 'home-phone.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(screenshotDir, 'home-desktop.png'), fullPage: true });
  await page.goto(origin + '/tools/code-llama-4');
  await page.screenshot({ path: join(screenshotDir, 'tool-desktop.png'), fullPage: true });
  console.log(`browser test passed; screenshots in ${screenshotDir}`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(workDir, { recursive: true, force: true });
}
