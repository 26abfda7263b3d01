// An editor at the desk in a real browser (Debian's chromium via playwright-core): signs in,
// writes a tool and a review, publishes a comparison, sees it on the home page as a reader
// who is not signed in, finds the changes in the edit log, and signs out. A form planted on
// another origin that posts to the desk is refused. Leaves screenshots of the desk at phone
// and desktop width, and fails if a desk page scrolls sideways on a phone.
// Usage: node editor_desk.mjs /path/to/verdict SCREENSHOT_DIR
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { chromiumOptions, startServer } from './verdict_server.mjs';

const [binaryArg, screenshotDir] = process.argv.slice(2);
const binary = binaryArg && resolve(binaryArg);
assert.ok(binaryArg && screenshotDir, 'usage: editor_desk.mjs VERDICT_BINARY SCREENSHOT_DIR');
mkdirSync(screenshotDir, { recursive: true });
const workDir = mkdtempSync(join(tmpdir(), 'verdict-desk-'));
const db = join(workDir, 'site.db');
const email = 'editor@example.com';
const password = 'a long desk password';

// The owner adds the editor from the shell, the password piped in.
const added = spawnSync(binary, ['user', 'add', email, '--db', db], { input: password + '\n' });
assert.equal(added.status, 0, `verdict user add failed: ${added.stderr}`);

// A page on another origin (another port of this machine) with a form aimed at the desk.
function startForger(target) {
  const page = `<!doctype html><title>Win a prize</title>
<form method="post" action="${target}/admin/categories">
<input name="name" value="Forged"><input name="slug" value="forged"><input name="csrf" value="guess">
<button type="submit">Claim</button></form>`;
  const forger = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(page);
  });
  return new Promise((resolve) => forger.listen(0, '127.0.0.1', () =>
    resolve({ forger, forgerOrigin: `http://127.0.0.1:${forger.address().port}` })));
}

async function noSidewaysScroll(page, what) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${what} scrolls sideways on a phone by ${overflow}px`);
}

const { server, origin } = await startServer(binary, db, workDir);
const { forger, forgerOrigin } = await startForger(origin);
const browser = await chromium.launch(chromiumOptions);
try {
  const editor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const desk = await editor.newPage();
  await desk.goto(origin + '/admin/tools');
  assert.match(desk.url(), /\/admin\/login\?next=\/admin\/tools$/);
  await desk.getByLabel('Email address').fill(email);
  await desk.getByLabel('Password').fill('not the password');
  await desk.getByRole('button', { name: 'Sign in' }).click();
  await desk.getByText('That email address and password do not match an editor.').waitFor();
  assert.equal(await desk.getByLabel('Email address').inputValue(), email);
  await desk.getByLabel('Password').fill(password);
  await desk.getByRole('button', { name: 'Sign in' }).click();
  await desk.waitForURL(`${origin}/admin/tools`);
  await desk.screenshot({ path: join(screenshotDir, 'desk-tools-desktop.png'), fullPage: true });

  // A new tool, every field.
  await desk.getByRole('link', { name: 'New tool' }).click();
  await desk.getByLabel('Name').fill('Careful Agent');
  await desk.getByLabel('Address').fill('careful-agent');
  await desk.getByLabel('Category').selectOption('developer-tools');
  await desk.getByLabel('Tagline').fill('Writes the tests first.');
  await desk.getByLabel('Description').fill('A careful coding agent.');
  await desk.getByLabel('Pricing model').selectOption('Freemium');
  await desk.getByLabel('Vendor').fill('Careful Labs');
  await desk.getByLabel('Website').fill('https://careful.example/');
  await desk.getByLabel('Pricing read').fill('Free for one repository; $19 a month after.');
  await desk.getByLabel('Pricing checked on').fill('2026-11-20');
  await desk.getByLabel('Pricing source').fill('https://careful.example/pricing');
  await desk.screenshot({ path: join(screenshotDir, 'desk-tool-form-desktop.png'), fullPage: true });
  await desk.getByRole('button', { name: 'Create tool' }).click();
  await desk.getByText('Saved the tool Careful Agent.').waitFor();

  // Its first review.
  await desk.goto(origin + '/admin/reviews/new');
  // Exactly: the header's search box is labelled "Search tools and reviews".
  await desk.getByLabel('Tool', { exact: true }).selectOption('careful-agent');
  await desk.getByLabel('Reviewer').selectOption({ index: 0 });
  await desk.getByLabel('Verdict').selectOption('ship');
  await desk.getByLabel('Quote').fill('It refused to merge until the tests passed.');
  await desk.getByRole('button', { name: 'Create review' }).click();
  await desk.getByText(/Saved the review .+ on Careful Agent\./).waitFor();

  // A comparison, published today with its bottom line.
  const today = new Date().toISOString().slice(0, 10);
  await desk.goto(origin + '/admin/comparisons/new');
  await desk.getByLabel('First tool').selectOption('careful-agent');
  await desk.getByLabel('Second tool').selectOption('codestral-2-1');
  await desk.getByLabel('Published on').fill(today);
  await desk.getByLabel('Intro').fill('A careful agent against a fast model.');
  await desk.getByLabel('Bottom line').fill('Ship Careful Agent where tests matter most.');
  await desk.getByRole('button', { name: 'Create comparison' }).click();
  await desk.getByText('Saved the comparison Careful Agent vs Codestral 2.1.').waitFor();

  // A reader who is not signed in sees it on the home page at once.
  const reader = await browser.newContext();
  const home = await reader.newPage();
  await home.goto(origin + '/');
  await home.getByRole('link', { name: /Careful Agent vs Codestral 2\.1/ }).first().click();
  await home.waitForURL(`${origin}/compare/careful-agent-vs-codestral-2-1`);
  await home.getByText('Ship Careful Agent where tests matter most.').waitFor();
  // The quote's opening stands for it, folded; a tap opens the whole quote.
  await home.locator('.quote-opening', { hasText: 'It refused to merge until the tests passed.' })
    .click();
  await home.locator('blockquote', { hasText: 'It refused to merge until the tests passed.' })
    .waitFor();
  await reader.close();

  // The edit log has all three.
  await desk.getByRole('link', { name: 'Edit log' }).click();
  for (const change of [`${email} created tool careful-agent`,
                        `${email} created review`,
                        `${email} published comparison careful-agent-vs-codestral-2-1`])
    await desk.getByText(change).first().waitFor();

  // A form on another origin, posted from the signed-in browser, is refused.
  const trap = await editor.newPage();
  await trap.goto(forgerOrigin + '/');
  const [answer] = await Promise.all([
    trap.waitForNavigation(),
    trap.getByRole('button', { name: 'Claim' }).click(),
  ]);
  assert.equal(answer.status(), 403);
  await trap.close();
  await desk.goto(origin + '/admin/categories');
  assert.equal(await desk.getByText('Forged').count(), 0);

  // The desk on a phone.
  await desk.setViewportSize({ width: 375, height: 812 });
  for (const [path, name] of [['/admin', 'desk'], ['/admin/tools/careful-agent', 'desk-tool-form'],
                              ['/admin/comparisons', 'desk-comparisons'], ['/admin/log', 'desk-log']]) {
    await desk.goto(origin + path);
    await noSidewaysScroll(desk, path);
    await desk.screenshot({ path: join(screenshotDir, `${name}-phone.png`), fullPage: true });
  }
  await desk.setViewportSize({ width: 1280, height: 900 });
  await desk.goto(origin + '/admin');
  await desk.screenshot({ path: join(screenshotDir, 'desk-desktop.png'), fullPage: true });

  // Signing out ends it: the desk asks to sign in again.
  await desk.getByRole('button', { name: 'Sign out' }).click();
  await desk.waitForURL(`${origin}/admin/login`);
  await desk.goto(origin + '/admin');
  assert.match(desk.url(), /\/admin\/login$/);
  console.log(`desk browser test passed; screenshots in ${screenshotDir}`);
} finally {
  await browser.close();
  forger.close();
  server.kill('SIGTERM');
  rmSync(workDir, { recursive: true, force: true });
}
