// An editor at the desk in a real browser (Debian's chromium via playwright-core): signs in,
// writes a tool and a review, publishes a comparison, sees it on the home page as a reader
// who is not signed in, finds the changes in the edit log (an edit field by field, through the
// log's box), narrows the tools list, and signs out. A form planted on another origin that
// posts to the desk is refused. Leaves screenshots of the desk at phone and desktop width,
// and fails if a desk page scrolls sideways on a phone.
// Usage: node editor_desk.mjs /path/to/verdict SCREENSHOT_DIR
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { addEditor, chromiumOptions, keepScreenshot, startForger, startServer, stopServer } from './verdict_server.mjs';

const [binaryArg, screenshotDir] = process.argv.slice(2);
const binary = binaryArg && resolve(binaryArg);
assert.ok(binaryArg && screenshotDir, 'usage: editor_desk.mjs VERDICT_BINARY SCREENSHOT_DIR');
mkdirSync(screenshotDir, { recursive: true });
const workDir = mkdtempSync(join(tmpdir(), 'verdict-desk-'));
const db = join(workDir, 'site.db');
const email = 'editor@example.com';
const password = 'a long desk password';

addEditor(binary, db, email, password);

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
  await keepScreenshot(desk, { path: join(screenshotDir, 'desk-tools-desktop.png'), fullPage: true });

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
  await keepScreenshot(desk, { path: join(screenshotDir, 'desk-tool-form-desktop.png'), fullPage: true });
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

  await desk.getByRole('link', { name: 'Edit log' }).click();
  // The edit log has all three, each by its name, field by field.
  for (const change of [`${email} created tool Careful Agent`,
                        `${email} created review`,
                        `${email} published comparison Careful Agent vs Codestral 2.1`])
    await desk.getByText(change).first().waitFor();
  await desk.locator('.desk-log li', { hasText: `${email} created tool Careful Agent` })
    .locator('dt', { hasText: 'Tagline' }).first().waitFor();

  // An edit, found again through the log's box, reads field by field: what was, what is.
  await desk.goto(origin + '/admin/tools/careful-agent');
  await desk.getByLabel('Tagline').fill('Reads the repository before it writes.');
  await desk.getByRole('button', { name: 'Save changes' }).click();
  await desk.getByText('Saved the tool Careful Agent.').waitFor();
  await desk.goto(origin + '/admin/log');
  await desk.getByLabel('Find changes by editor, item or any word they changed').fill('repository before');
  await desk.getByRole('button', { name: 'Find', exact: true }).click();
  await desk.waitForURL(/\/admin\/log\?q=repository\+before$/);
  const found = desk.locator('.desk-log > li');
  assert.equal(await found.count(), 1, 'only the change holding the words is listed');
  assert.match(await found.innerText(), /updated tool Careful Agent/);
  assert.equal(await found.locator('dt').allInnerTexts().then((t) => t.join('|')), 'Tagline');
  assert.match(await found.locator('del').innerText(), /^was:\s*Writes the tests first\.$/);
  assert.match(await found.locator('ins').innerText(),
               /^now:\s*Reads the repository before it writes\.$/);
  await keepScreenshot(desk, { path: join(screenshotDir, 'desk-log-desktop.png'), fullPage: true });

  // The tools list narrows the same way.
  await desk.goto(origin + '/admin/tools');
  await desk.getByLabel('Find tools by name, address, tagline or vendor').fill('careful');
  await desk.getByRole('button', { name: 'Find', exact: true }).click();
  await desk.getByText('Only those holding “careful”.').waitFor();
  assert.deepEqual(await desk.locator('.list-table tbody tr td:first-child').allInnerTexts(),
                   ['Careful Agent']);

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
    await keepScreenshot(desk, { path: join(screenshotDir, `${name}-phone.png`), fullPage: true });
  }
  await desk.setViewportSize({ width: 1280, height: 900 });
  await desk.goto(origin + '/admin');
  await keepScreenshot(desk, { path: join(screenshotDir, 'desk-desktop.png'), fullPage: true });

  // Signing out ends it: the desk asks to sign in again.
  await desk.getByRole('button', { name: 'Sign out' }).click();
  await desk.waitForURL(`${origin}/admin/login`);
  await desk.goto(origin + '/admin');
  assert.match(desk.url(), /\/admin\/login$/);
  console.log(`desk browser test passed; screenshots in ${screenshotDir}`);
} finally {
  await browser.close();
  forger.close();
  await stopServer(server);
  rmSync(workDir, { recursive: true, force: true });
}
