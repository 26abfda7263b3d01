// Every 4xx a desk form can answer, met in a real browser (Debian's chromium via
// playwright-core) the way an editor meets it: the real form filled and its real button
// clicked, a second tab doing what a colleague (or the editor, elsewhere) did meanwhile. For
// each fault it checks four things:
//   1. the status of the page the click brought (the navigation's own answer);
//   2. that the page says what was wrong and how to fix it: beside the field at fault (inside
//      that field's block, and named by its control's aria-describedby, with no other field
//      showing a fault), or at the top of the form (role="alert"), or on the error page;
//   3. that what the editor typed is still in the form (for refusals that cannot show the form
//      again, that the browser's Back brings it back with the words in it);
//   4. that nothing was written: the edit log (every desk write adds a line) and the section's
//      list read the same, from another signed-in browser, before the click and after.
// The cases are one table, and each check of a case has a name (checksOf), so a report names
// every check that fails, not only the first.
// Prints a line for each case, then a summary; exits 1 if any case failed. Leaves
// screenshots of three fault pages at phone and desktop width.
// Usage: node desk_faults.mjs /path/to/verdict SCREENSHOT_DIR
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { addEditor, chromiumOptions, keepScreenshot, startForger, startServer, stopServer } from './verdict_server.mjs';

const [binaryArg, screenshotDir] = process.argv.slice(2);
const binary = binaryArg && resolve(binaryArg);
assert.ok(binaryArg && screenshotDir, 'usage: desk_faults.mjs VERDICT_BINARY SCREENSHOT_DIR');
mkdirSync(screenshotDir, { recursive: true });
const workDir = mkdtempSync(join(tmpdir(), 'verdict-faults-'));
const db = join(workDir, 'site.db');
const email = 'editor@example.com';
const password = 'a long desk password';

addEditor(binary, db, email, password);

const { server, origin } = await startServer(binary, db, workDir);
const { forger, forgerOrigin } = await startForger(origin);
const browser = await chromium.launch(chromiumOptions);
const desktop = { width: 1280, height: 900 };
const phone = { width: 375, height: 812 };
const url = (path) => (path.startsWith('http') ? path : origin + path);

// Every wait is for something the page must already hold once it has loaded, so a short
// limit only makes a failure quick to report; nothing asserts how long anything took.
async function newTab(context) {
  const tab = await context.newPage();
  tab.setDefaultTimeout(10000);
  return tab;
}

// ---- Driving the desk as the editor does --------------------------------------------------

async function signIn(tab) {
  await tab.goto(url('/admin/login'));
  await tab.getByLabel('Email address', { exact: true }).fill(email);
  await tab.getByLabel('Password', { exact: true }).fill(password);
  await tab.getByRole('button', { name: 'Sign in' }).click();
  await tab.waitForURL(url('/admin'));
}

async function signOut(tab) {
  await tab.goto(url('/admin'));
  await tab.getByRole('button', { name: 'Sign out' }).click();
  await tab.waitForURL(url('/admin/login'));
}

async function ensureSignedIn(tab) {
  await tab.goto(url('/admin'));
  if (tab.url() !== url('/admin')) await signIn(tab);
}

// A field of a desk form by its visible label: a select gets the choice with that value, any
// other control the text typed in.
async function control(page, label) {
  const found = page.getByLabel(label, { exact: true });
  assert.equal(await found.count(), 1, `the page has one field labelled "${label}"`);
  return found;
}

async function enter(page, label, value) {
  const field = await control(page, label);
  if (await field.evaluate((node) => node.tagName === 'SELECT')) await field.selectOption(value);
  else await field.fill(value);
}

// Clicks a form's real button and gives the answer the browser navigated to. A button that
// opens its answer in a new tab (the comparison's Preview) gives that tab.
async function press(page, button, inNewTab = false) {
  // Chrome holds back a tab behind another one (its frames, its load event) for a second or
  // two; an editor clicks in the tab in front.
  await page.bringToFront();
  const click = page.getByRole('button', { name: button, exact: true }).click();
  if (!inNewTab) {
    const [response] = await Promise.all([page.waitForNavigation(), click]);
    return { answer: page, response };
  }
  const context = page.context();
  // The form's own tab stays where it is, so the navigation answered now is the new tab's.
  const navigated = context.waitForEvent('response', (r) => r.request().isNavigationRequest());
  const [answer] = await Promise.all([context.waitForEvent('page'), click]);
  const response = await navigated;
  await answer.waitForLoadState();
  return { answer, response };
}

async function createCategory(tab, slug, name) {
  await tab.goto(url('/admin/categories/new'));
  await enter(tab, 'Name', name);
  await enter(tab, 'Address', slug);
  await press(tab, 'Create category');
  await tab.getByText(`Saved the category ${name}.`).waitFor();
}

async function createTool(tab, slug, name) {
  await tab.goto(url('/admin/tools/new'));
  for (const [label, value] of Object.entries({ ...aTool, Name: name, Address: slug }))
    await enter(tab, label, value);
  await press(tab, 'Create tool');
  await tab.getByText(`Saved the tool ${name}.`).waitFor();
}

// Deletes the item whose desk address is `path` through its confirm page.
async function deleteAt(tab, path) {
  await tab.goto(url(path + '/delete'));
  const { response } = await press(tab, await tab.locator('button.danger').innerText());
  assert.equal(response.status(), 200, `deleting ${path} meanwhile worked`);
}

async function subscribe(tab, address) {
  await tab.goto(url('/subscribe'));
  await tab.getByLabel('Email address', { exact: true }).fill(address);
  await press(tab, 'Subscribe');
}

// A subscriber's erasure page, reached from the list as the editor reaches it.
async function openErasure(tab, address) {
  await tab.goto(url('/admin/subscribers'));
  await tab.getByRole('link', { name: `Delete ${address}` }).click();
  await tab.getByRole('button', { name: `Erase ${address}` }).waitFor();
}

// ---- What a fault page must show ----------------------------------------------------------

// The block (label, control, hint, fault) of the field labelled `label`, and the fault in it.
function blockOf(page, label) {
  return page.getByLabel(label, { exact: true })
    .locator('xpath=ancestor::*[contains(concat(" ", @class, " "), " field ")][1]');
}
const faultBeside = (page, label) => blockOf(page, label).locator('.field-problem');

// One fault, inside the block of the field labelled `label` (the one the editor must fix), is
// what that control's aria-describedby names, so a screen reader reads it on the field.
async function assertBeside(page, label) {
  const input = await control(page, label);
  const fault = faultBeside(page, label);
  assert.equal(await fault.count(), 1, `a fault shows beside "${label}"`);
  assert.equal(await input.getAttribute('aria-invalid'), 'true', `"${label}" is marked invalid`);
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(/\s+/);
  assert.ok(ids.includes(await fault.getAttribute('id')), `"${label}" is described by its fault`);
}

// No field but `label`'s (or none at all) shows a fault or is marked invalid.
async function assertNoOtherFault(page, label) {
  const all = await page.locator('.field-problem').allInnerTexts();
  const own = label ? await faultBeside(page, label).count() : 0;
  assert.equal(all.length - own, 0,
               `${all.length - own} other fields show: ${JSON.stringify([...new Set(all)])}`);
  const invalid = await page.locator('[aria-invalid="true"]').count();
  const ownInvalid =
    label ? await blockOf(page, label).locator('[aria-invalid="true"]').count() : 0;
  assert.equal(invalid - ownInvalid, 0, 'other fields are marked invalid');
}

// The message at the top of the form (or of a confirm page), announced as an alert.
const topOf = (page) => page.locator('.form-problem[role="alert"]');
async function topText(page) {
  assert.equal(await topOf(page).count(), 1, 'the page says at its top what went wrong');
  return topOf(page).innerText();
}
async function assertTop(page, describes) {
  await topText(page);
  if (!describes) return;
  const ids = ((await (await control(page, describes)).getAttribute('aria-describedby')) ?? '');
  assert.ok(ids.split(/\s+/).includes(await topOf(page).getAttribute('id')),
            `"${describes}" is described by the message at the top`);
}

async function assertKept(page, typed, notKept = [], emptied = []) {
  assert.equal(await page.locator('form.desk-form').count(), 1, 'the form is shown again');
  for (const [label, value] of Object.entries(typed)) {
    if (notKept.includes(label)) continue;
    const kept = await (await control(page, label)).inputValue();
    if (emptied.includes(label)) assert.equal(kept, '', `"${label}" is not said back`);
    else assert.equal(kept, value, `"${label}" keeps what the editor typed`);
  }
}

async function noSidewaysScroll(page, what) {
  const overflow =
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${what} scrolls sideways on a phone by ${overflow}px`);
}

async function screenshots(page, name) {
  await keepScreenshot(page, { path: join(screenshotDir, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(phone);
  try {
    await noSidewaysScroll(page, name);
    await keepScreenshot(page, { path: join(screenshotDir, `${name}-phone.png`), fullPage: true });
  } finally {
    await page.setViewportSize(desktop);
  }
}

// A failure names what the page said instead.
const assertSays = (text, message) =>
  assert.match(text, message,
               `${JSON.stringify(text.replace(/\s+/g, ' '))} does not say ${message}`);

// The checks of one answer, each named, in order. `page` is the tab the form was in, `answer` the one its answer came to.
function checksOf(c, page, answer, response) {
  const checks = [];
  const check = (name, run) => checks.push([name, run]);
  check('status', () => assert.equal(response.status(), c.status, `status ${response.status()}`));
  if (c.header)
    check(`${c.header[0]} header`,
          () => assertSays(response.headers()[c.header[0]] ?? '', c.header[1]));
  if (c.field) check('fault beside its field', () => assertBeside(answer, c.field[0]));
  check('no fault beside any other field', () => assertNoOtherFault(answer, c.field?.[0]));
  if (c.top) check('message at the top', () => assertTop(answer, c.describes));
  else if (!c.errorPage)
    check('no other message at the top', async () => assert.equal(await topOf(answer).count(), 0));
  // A fault beside a field may be far down the form: unless a message at the top speaks for
  // the form, the top says it was not saved and links to that field, and to no other.
  const summary = answer.locator('.form-faults[role="alert"]');
  if (c.field && !c.top) {
    check('the top says it was not saved, linking to the field', async () => {
      assert.equal(await summary.count(), 1, 'a summary at the top');
      assertSays(await summary.innerText(), /^Not saved: one field needs a change/);
      const id = await (await control(answer, c.field[0])).getAttribute('id');
      const links = summary.locator('a');
      assert.deepEqual(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href'))),
                       [`#${id}`]);
      assert.equal(await links.innerText(), c.field[0]);
    });
  } else if (!c.errorPage) {
    check('no summary of fields', async () => assert.equal(await summary.count(), 0));
  }
  check('says what is wrong', async () => {
    if (c.field) {
      const fault = faultBeside(answer, c.field[0]);
      assert.equal(await fault.count(), 1, `a fault shows beside "${c.field[0]}"`);
      assertSays(await fault.innerText(), c.field[1]);
    }
    if (c.top) {
      const text = await topText(answer);
      for (const message of c.top) assertSays(text, message);
    }
    if (c.errorPage) {
      assert.equal(await answer.locator('main h1').innerText(), c.errorPage[0]);
      const text = await answer.locator('main').innerText();
      for (const message of c.errorPage[1]) assertSays(text, message);
    }
    for (const message of c.says ?? [])
      assertSays(await answer.locator('main').innerText(), message);
  });
  if (c.names) {
    check('names both tools', async () => {
      const text = await topText(answer);
      for (const name of c.names) assertSays(text, name);
    });
  }
  if (c.shot) check('fits a phone', () => screenshots(answer, c.shot));
  if (c.fill && c.keptAfterBack) {
    check('keeps what was typed (Back)', async () => {
      if (c.beforeBack) await c.beforeBack();
      await answer.goBack();
      await assertKept(answer, { ...c.fill, ...c.keptAs }, c.notKept, c.emptied);
    });
  } else if (c.fill && c.inNewTab && c.errorPage) {
    check('keeps what was typed', () => assertKept(page, { ...c.fill, ...c.keptAs }, c.notKept, c.emptied));
  } else if (c.fill && !c.errorPage) {
    check('keeps what was typed', () => assertKept(answer, { ...c.fill, ...c.keptAs }, c.notKept, c.emptied));
  }
  return checks;
}

// ---- The items the forms are filled with --------------------------------------------------

// A whole, valid item of each kind; each case changes one field of it to make its fault.
const aCategory = { Name: 'Research Tools', Address: 'research-tools' };
const aTool = {
  'Name': 'Careful Agent', 'Address': 'careful-agent', 'Category': 'developer-tools',
  'Tagline': 'Writes the tests first.',
  // Two lines: a textarea's line breaks must come back as typed.
  'Description': 'A careful coding agent.\nIt reads the repository before it writes.',
  'Pricing model': 'Freemium', 'Vendor': 'Careful Labs', 'Website': 'https://careful.example/',
  'Pricing read': 'Free for one repository; $19 a month after.',
  'Pricing checked on': '2026-11-20', 'Pricing source': 'https://careful.example/pricing',
};
const aReviewer = {
  'Name': 'Sam Rivera', 'Address': 'sam-rivera', 'Lens': 'reads the licence first',
  'About': 'A lawyer turned engineer.',
};
// Nobody has reviewed Mistral 3 Small as the creative yet, and no comparison pairs the two
// tools below, in the content every new site starts with.
const aReview = {
  Tool: 'mistral-3-small', Reviewer: 'creative', Verdict: 'ship',
  Quote: 'Small, quick and cheap.\nGood enough for drafts.',
};
const aComparison = {
  'First tool': 'mistral-3-small', 'Second tool': 'code-llama-4-70b',
  'Published on': '2026-11-20', 'Intro': 'A small model against a large one.',
  'Bottom line': 'Ship Mistral 3 Small for drafts.',
};
const chars = (n) => 'a'.repeat(n);

// A pair already compared (Cursor Background Agent vs Codestral 2.1, in the content every new
// site starts with): refused in either order, and said with both tools' names as readers
// know them ("Cursor Background Agent" is not to be met inside "Cursor Background Agents").
const pairTaken = {
  top: [/Not saved/, /A pair has one comparison, in either order/],
  names: [/Cursor Background Agent(?!s)/, /Codestral 2\.1/],
};
// A second review of one tool by one reviewer: who and which tool, by address or by name.
const reviewTaken = [/Not saved/, /\b(builder|Maya Chen)\b/, /(codestral-2-1|Codestral 2\.1)/,
                     /A reviewer has one review of a tool/];


// ---- The cases ----------------------------------------------------------------------------
// Each case has:
//   name, route      for the report;
//   door             it starts in a browser no one has signed in from (else the editor's);
//   before           done first (in `other`, the same editor's second tab, or at the door);
//   open             the page with the form (a path, an address, or a function that goes
//                    there as the editor does), or `path`: a page asked for by its address,
//                    when no form leads to the fault;
//   fill             label → what the editor types or picks, in the form's order;
//   meanwhile        done in `other` after the form is filled, before it is sent;
//   button           the form's button clicked (inNewTab: it opens its answer in a new tab);
//   status, header   of the answer;
//   field            [label, message]: the fault shows beside that field and nowhere else;
//   top              [messages]: said at the top of the form (describes: the field whose
//                    aria-describedby names it); names: [names] the top message holds too;
//   errorPage        [heading, [messages]]: a page of its own, no form;
//   says             more the page must say;
//   notKept, emptied fields not expected back as typed (a choice no longer offered), or
//                    expected back empty (a password);
//   keptAs           label → what the form shows of it again, where not as typed (a pasted
//                    tab shown as the space it is made, so the editor sees where it was);
//   keptAfterBack    the answer cannot show the form: Back must (beforeBack: done first);
//   list             the desk list that must read the same after, with the edit log;
//   shot             screenshots of the answer, at desktop and phone width;

// The same editor's second tab, where what happens "meanwhile" is done.
let other;

const cases = [
  // -- Signing in (a browser no one has signed in from yet)
  {
    name: 'sign-in with the wrong password', route: 'POST /admin/login', door: true,
    open: '/admin/login', fill: { 'Email address': email, 'Password': 'not the password' },
    button: 'Sign in', status: 401,
    top: [/That email address and password do not match an editor/], describes: 'Email address',
    // The password is never sent back into a page.
    emptied: ['Password'],
  },

  // -- Categories
  {
    name: 'category without a name', route: 'POST /admin/categories',
    open: '/admin/categories/new', fill: { ...aCategory, Name: '' }, button: 'Create category',
    status: 400, field: ['Name', /Name must not be empty/], list: '/admin/categories',
  },
  {
    name: 'category address that is not a slug', route: 'POST /admin/categories',
    open: '/admin/categories/new', fill: { ...aCategory, Address: 'Research Tools' },
    button: 'Create category', status: 400,
    field: ['Address', /Address must be a slug \(lowercase letters, digits and single hyphens, at most 120 characters\)/],
    list: '/admin/categories',
  },
  {
    name: 'category address longer than an address may be', route: 'POST /admin/categories',
    open: '/admin/categories/new', fill: { ...aCategory, Address: chars(121) },
    button: 'Create category', status: 400, field: ['Address', /120/], list: '/admin/categories',
  },
  {
    name: 'category address already taken', route: 'POST /admin/categories',
    open: '/admin/categories/new', fill: { ...aCategory, Address: 'developer-tools' },
    button: 'Create category', status: 409,
    field: ['Address', /Address is taken: another category has this address/],
    list: '/admin/categories',
  },
  {
    name: 'category renamed to an address already taken', route: 'POST /admin/categories/:slug',
    before: () => createCategory(other, 'rename-me', 'Rename Me'),
    open: '/admin/categories/rename-me', fill: { Address: 'developer-tools' },
    button: 'Save changes', status: 409,
    field: ['Address', /Address is taken: another category has this address/],
    list: '/admin/categories',
  },
  {
    name: 'deleting a category that still holds tools',
    route: 'POST /admin/categories/:slug/delete',
    open: '/admin/categories/developer-tools/delete', button: 'Delete Developer Tools',
    status: 409, top: [/\d+ tools are in this category: move them to another category first/],
    says: [/The category Developer Tools cannot be deleted yet/], list: '/admin/categories',
    shot: 'desk-fault-delete-refused',
  },
  {
    name: 'deleting a category deleted meanwhile', route: 'POST /admin/categories/:slug/delete',
    before: () => createCategory(other, 'gone-soon', 'Gone Soon'),
    open: '/admin/categories/gone-soon/delete',
    meanwhile: () => deleteAt(other, '/admin/categories/gone-soon'),
    button: 'Delete Gone Soon', status: 404,
    errorPage: ['Not found', [/There is no category at this address/]], list: '/admin/categories',
  },

  // -- Tools
  {
    name: 'tool without a name', route: 'POST /admin/tools', open: '/admin/tools/new',
    fill: { ...aTool, Name: '' }, button: 'Create tool', status: 400,
    field: ['Name', /Name must not be empty/], list: '/admin/tools',
  },
  {
    name: 'tool address that is not a slug', route: 'POST /admin/tools', open: '/admin/tools/new',
    fill: { ...aTool, Address: 'Careful Agent' }, button: 'Create tool', status: 400,
    field: ['Address', /Address must be a slug/], list: '/admin/tools',
  },
  {
    name: 'tool tagline over 300 characters', route: 'POST /admin/tools', open: '/admin/tools/new',
    fill: { ...aTool, Tagline: chars(301) }, button: 'Create tool', status: 400,
    field: ['Tagline', /Tagline is longer than 300/], list: '/admin/tools',
  },
  {
    name: 'tool without a description', route: 'POST /admin/tools', open: '/admin/tools/new',
    fill: { ...aTool, Description: '' }, button: 'Create tool', status: 400,
    field: ['Description', /Description must not be empty/], list: '/admin/tools',
  },
  {
    name: 'tool website without http(s)', route: 'POST /admin/tools', open: '/admin/tools/new',
    fill: { ...aTool, Website: 'careful.example' }, button: 'Create tool', status: 400,
    field: ['Website', /Website must be an http:\/\/ or https:\/\/ address without spaces/],
    list: '/admin/tools', shot: 'desk-fault-field',
  },
  {
    name: 'tool pricing source that is not a web address', route: 'POST /admin/tools',
    open: '/admin/tools/new', fill: { ...aTool, 'Pricing source': 'javascript:alert(1)' },
    button: 'Create tool', status: 400,
    field: ['Pricing source', /Pricing source must be an http:\/\/ or https:\/\/ address/],
    list: '/admin/tools',
  },
  {
    // Chrome's date field takes a year of five digits (a slip of the keyboard): the only
    // date the browser will send that the desk refuses.
    name: 'tool pricing date with a five-digit year', route: 'POST /admin/tools',
    open: '/admin/tools/new', fill: { ...aTool, 'Pricing checked on': '20260-11-20' },
    button: 'Create tool', status: 400,
    field: ['Pricing checked on', /Pricing checked on must be a date YYYY-MM-DD/],
    list: '/admin/tools',
  },
  {
    name: 'tool vendor over 200 characters', route: 'POST /admin/tools', open: '/admin/tools/new',
    fill: { ...aTool, Vendor: chars(201) }, button: 'Create tool', status: 400,
    field: ['Vendor', /Vendor is longer than 200/], list: '/admin/tools',
  },
  {
    name: 'tool address already taken', route: 'POST /admin/tools', open: '/admin/tools/new',
    fill: { ...aTool, Address: 'codestral-2-1' }, button: 'Create tool', status: 409,
    field: ['Address', /Address is taken: another tool has this address/], list: '/admin/tools',
  },
  {
    name: 'tool renamed to an address already taken', route: 'POST /admin/tools/:slug',
    open: '/admin/tools/mistral-3-small', fill: { Address: 'codestral-2-1' },
    button: 'Save changes', status: 409,
    field: ['Address', /Address is taken: another tool has this address/], list: '/admin/tools',
  },
  {
    name: 'tool in a category deleted meanwhile', route: 'POST /admin/tools',
    before: () => createCategory(other, 'scratch-shelf', 'Scratch Shelf'),
    open: '/admin/tools/new', fill: { ...aTool, Category: 'scratch-shelf' },
    meanwhile: () => deleteAt(other, '/admin/categories/scratch-shelf'),
    button: 'Create tool', status: 409,
    top: [/no category has the address (scratch-shelf|Scratch Shelf)/i], list: '/admin/tools',
    // The category is no longer among the choices, so the select cannot show it.
    notKept: ['Category'],
  },
  {
    name: 'tool with a tab pasted into its name', route: 'POST /admin/tools',
    open: '/admin/tools/new', fill: { ...aTool, Name: 'Careful\tAgent' }, button: 'Create tool',
    status: 400, field: ['Name', /Name can hold no line break, tab or other invisible character: .*check it and save again/], list: '/admin/tools',
    keptAs: { Name: 'Careful Agent' },
  },
  {
    name: 'tool description over 20000 characters', route: 'POST /admin/tools',
    open: '/admin/tools/new', fill: { ...aTool, Description: chars(20001) },
    button: 'Create tool', status: 400,
    field: ['Description', /Description is longer than 20000/], list: '/admin/tools',
  },
  {
    name: 'saving a tool deleted meanwhile', route: 'POST /admin/tools/:slug',
    before: () => createTool(other, 'doomed-tool', 'Doomed Tool'),
    open: '/admin/tools/doomed-tool', fill: { Tagline: 'A tagline worth keeping.' },
    meanwhile: () => deleteAt(other, '/admin/tools/doomed-tool'),
    button: 'Save changes', status: 404, top: [/tool/i], list: '/admin/tools',
  },

  // -- Reviewers
  {
    name: 'reviewer without a name', route: 'POST /admin/reviewers', open: '/admin/reviewers/new',
    fill: { ...aReviewer, Name: '' }, button: 'Create reviewer', status: 400,
    field: ['Name', /Name must not be empty/], list: '/admin/reviewers',
  },
  {
    name: 'reviewer without a lens', route: 'POST /admin/reviewers', open: '/admin/reviewers/new',
    fill: { ...aReviewer, Lens: '' }, button: 'Create reviewer', status: 400,
    field: ['Lens', /Lens must not be empty/], list: '/admin/reviewers',
  },
  {
    name: 'reviewer address already taken', route: 'POST /admin/reviewers',
    open: '/admin/reviewers/new', fill: { ...aReviewer, Address: 'builder' },
    button: 'Create reviewer', status: 409,
    field: ['Address', /Address is taken: another reviewer has this address/],
    list: '/admin/reviewers',
  },

  // -- Reviews
  {
    name: 'review without a quote', route: 'POST /admin/reviews', open: '/admin/reviews/new',
    fill: { ...aReview, Quote: '' }, button: 'Create review', status: 400,
    field: ['Quote', /Quote must not be empty/], list: '/admin/reviews',
  },
  {
    name: 'second review of a tool by the same reviewer', route: 'POST /admin/reviews',
    open: '/admin/reviews/new',
    fill: { ...aReview, Tool: 'codestral-2-1', Reviewer: 'builder' }, button: 'Create review',
    status: 409, top: reviewTaken, list: '/admin/reviews',
  },
  {
    name: 'review moved onto a reviewer who reviewed that tool',
    route: 'POST /admin/reviews/:tool--:reviewer', open: '/admin/reviews/codestral-2-1--skeptic',
    fill: { Reviewer: 'builder' }, button: 'Save changes', status: 409, top: reviewTaken,
    list: '/admin/reviews',
  },
  {
    name: 'review of a tool deleted meanwhile', route: 'POST /admin/reviews',
    before: () => createTool(other, 'fleeting-tool', 'Fleeting Tool'),
    open: '/admin/reviews/new', fill: { ...aReview, Tool: 'fleeting-tool' },
    meanwhile: () => deleteAt(other, '/admin/tools/fleeting-tool'),
    button: 'Create review', status: 409,
    top: [/no tool has the address (fleeting-tool|Fleeting Tool)/i], list: '/admin/reviews',
    notKept: ['Tool'], // no longer among the choices
  },
  {
    name: 'review with a tab pasted into its quote', route: 'POST /admin/reviews',
    open: '/admin/reviews/new', fill: { ...aReview, Quote: 'It ran:\tnpm test\tand passed.' },
    button: 'Create review', status: 400,
    field: ['Quote', /Quote can hold no tab or other invisible character: .*check it and save again/], list: '/admin/reviews',
    keptAs: { Quote: 'It ran: npm test and passed.' },
  },

  // -- Comparisons
  {
    name: 'comparison of a tool with itself', route: 'POST /admin/comparisons',
    open: '/admin/comparisons/new', fill: { ...aComparison, 'Second tool': 'mistral-3-small' },
    button: 'Create comparison', status: 400,
    field: ['Second tool', /Second tool must differ from the first tool/],
    list: '/admin/comparisons',
  },
  {
    name: 'comparison bottom line over 2000 characters', route: 'POST /admin/comparisons',
    open: '/admin/comparisons/new', fill: { ...aComparison, 'Bottom line': chars(2001) },
    button: 'Create comparison', status: 400,
    field: ['Bottom line', /Bottom line is longer than 2000/], list: '/admin/comparisons',
  },
  {
    name: 'comparison published on a five-digit year', route: 'POST /admin/comparisons',
    open: '/admin/comparisons/new', fill: { ...aComparison, 'Published on': '20260-11-20' },
    button: 'Create comparison', status: 400,
    field: ['Published on', /Published on must be a date YYYY-MM-DD/], list: '/admin/comparisons',
  },
  {
    name: 'comparison of a pair already compared', route: 'POST /admin/comparisons',
    open: '/admin/comparisons/new',
    fill: { ...aComparison, 'First tool': 'cursor-background-agent',
            'Second tool': 'codestral-2-1' },
    button: 'Create comparison', status: 409, ...pairTaken, list: '/admin/comparisons',
  },
  {
    name: 'comparison of a pair already compared the other way round',
    route: 'POST /admin/comparisons', open: '/admin/comparisons/new',
    fill: { ...aComparison, 'First tool': 'codestral-2-1',
            'Second tool': 'cursor-background-agent' },
    button: 'Create comparison', status: 409, ...pairTaken, list: '/admin/comparisons',
    shot: 'desk-fault-top',
  },
  {
    name: 'comparison changed into a pair already compared', route: 'POST /admin/comparisons/:pair',
    open: '/admin/comparisons/cursor-background-agent-vs-mistral-small-3-1',
    fill: { 'Second tool': 'codestral-2-1' }, button: 'Save changes', status: 409,
    ...pairTaken, list: '/admin/comparisons',
  },
  {
    name: 'comparison with a tool deleted meanwhile', route: 'POST /admin/comparisons',
    before: () => createTool(other, 'passing-tool', 'Passing Tool'),
    open: '/admin/comparisons/new', fill: { ...aComparison, 'Second tool': 'passing-tool' },
    meanwhile: () => deleteAt(other, '/admin/tools/passing-tool'),
    button: 'Create comparison', status: 409,
    top: [/no tool has the address (passing-tool|Passing Tool)/i], list: '/admin/comparisons',
    notKept: ['Second tool'], // no longer among the choices
  },
  {
    // The Preview button sends the form to a new tab: the faults show there, on the form.
    name: 'preview of a comparison of a tool with itself', route: 'POST /admin/preview/comparison',
    open: '/admin/comparisons/new', fill: { ...aComparison, 'Second tool': 'mistral-3-small' },
    button: 'Preview', inNewTab: true, status: 400,
    top: [/Nothing to preview yet: the form has faults, shown beside each field/],
    field: ['Second tool', /Second tool must differ from the first tool/],
    list: '/admin/comparisons',
  },
  {
    // An error page in the preview's tab; the form, and all it holds, stays in its own tab.
    name: 'preview of a comparison with a tool deleted meanwhile',
    route: 'POST /admin/preview/comparison',
    before: () => createTool(other, 'brief-tool', 'Brief Tool'),
    open: '/admin/comparisons/new', fill: { ...aComparison, 'Second tool': 'brief-tool' },
    meanwhile: () => deleteAt(other, '/admin/tools/brief-tool'),
    button: 'Preview', inNewTab: true, status: 404,
    errorPage: ['Not found', [/One of the two tools is not on the site/]],
    list: '/admin/comparisons',
  },

  // -- Subscribers
  {
    name: 'erasing a subscriber erased meanwhile', route: 'POST /admin/subscribers/:id/delete',
    before: () => subscribe(other, 'reader@example.com'),
    open: (page) => openErasure(page, 'reader@example.com'),
    meanwhile: async () => {
      await openErasure(other, 'reader@example.com');
      await press(other, 'Erase reader@example.com');
    },
    button: 'Erase reader@example.com', status: 404,
    errorPage: ['Not found', [/There is no subscriber at this address/]],
    list: '/admin/subscribers',
  },

  // -- Addresses of items that do not exist: no form leads there, so they are asked for.
  ...[['category', '/admin/categories/no-such-category'],
      ['tool', '/admin/tools/no-such-tool'],
      ['reviewer', '/admin/reviewers/no-such-reviewer'],
      ['review', '/admin/reviews/no-such-tool--builder'],
      ['comparison', '/admin/comparisons/no-such-tool-vs-codestral-2-1']].flatMap(([noun, path]) =>
    [path, path + '/delete'].map((address) => ({
      name: `${noun} that does not exist: ${address}`, route: `GET ${address}`, path: address,
      status: 404, errorPage: ['Not found', [new RegExp(`There is no ${noun} at this address`)]],
    }))),
  {
    name: 'preview of a comparison that does not exist',
    route: 'GET /admin/comparisons/:pair/preview',
    path: '/admin/comparisons/no-such-tool-vs-codestral-2-1/preview', status: 404,
    errorPage: ['Not found', [/There is no comparison at this address/]],
  },
  {
    name: 'erasing a subscriber who does not exist', route: 'GET /admin/subscribers/:id/delete',
    path: '/admin/subscribers/987654321/delete', status: 404,
    errorPage: ['Not found', [/There is no subscriber at this address/]],
  },

  // -- Forms the desk cannot trust. Nothing in them is shown again (they may not be the
  // editor's), so what the editor typed is kept by the browser: Back brings the form back
  // with its words and a fresh token, and sending it from there works.
  {
    // Signed out and in again in another tab: this tab's form carries the old session's token.
    name: 'form sent with an old security token', route: 'POST /admin/categories',
    open: '/admin/categories/new', fill: aCategory,
    meanwhile: async () => { await signOut(other); await signIn(other); },
    button: 'Create category', status: 403,
    errorPage: ['Form refused', [/security token is missing or old/, /nothing was saved/]],
    keptAfterBack: true, list: '/admin/categories',
  },
  {
    name: 'form sent after the session ended', route: 'POST /admin/categories',
    open: '/admin/categories/new', fill: aCategory, meanwhile: () => signOut(other),
    button: 'Create category', status: 403,
    errorPage: ['Signed out', [/Your session has ended, so nothing was saved/, /Sign in again/]],
    // As the page says: sign in again, then send the form again (from Back).
    keptAfterBack: true, beforeBack: () => signIn(other), list: '/admin/categories',
    after: () => ensureSignedIn(other),
  },
  {
    name: 'form on another site posted from the signed-in browser', route: 'POST /admin/categories',
    open: forgerOrigin + '/', button: 'Claim', status: 403,
    errorPage: ['Cross-site request refused', [/can only be sent from a page of this site/]],
    list: '/admin/categories',
  },

  // -- Last, as it holds sign-in back for this address from this network: five wrong
  // passwords, then even the right one is refused for a while.
  {
    name: 'sign-in held back after five failures', route: 'POST /admin/login', door: true,
    before: async (page) => {
      for (let tries = 0; tries < 5; ++tries) {
        await page.goto(url('/admin/login'));
        await enter(page, 'Email address', email);
        await enter(page, 'Password', 'a wrong guess ' + tries);
        const { response } = await press(page, 'Sign in');
        // 429 early if the first case's failure is still counted.
        assert.ok([401, 429].includes(response.status()), `a wrong password: ${response.status()}`);
      }
    },
    open: '/admin/login', fill: { 'Email address': email, 'Password': password },
    button: 'Sign in', status: 429, header: ['retry-after', /^\d+$/],
    top: [/Too many failed sign-ins/, /Try again in \d+ minutes?/], describes: 'Email address',
    emptied: ['Password'],
  },
];

// ---- Running them -------------------------------------------------------------------------

// The edit log (every desk write adds a line to it) and a list, as another browser signed in
// as the same editor reads them.
async function deskState(watcher, list) {
  const read = async (path) => {
    await watcher.goto(url(path));
    assert.equal(watcher.url(), url(path), `the watching browser reads ${path}`);
    return watcher.locator('main').innerText();
  };
  return { log: await read('/admin/log'), list: list ? await read(list) : '' };
}

const results = { passed: [], failed: [] };
const desk = await browser.newContext({ viewport: desktop });
const watching = await browser.newContext({ viewport: desktop });
try {
  const page = await newTab(desk);
  other = await newTab(desk);
  const watcher = await newTab(watching);
  await signIn(page);
  await signIn(watcher);

  for (const c of cases) {
    // Sign-in cases start from a browser no one has signed in from.
    const door = c.door ? await browser.newContext({ viewport: desktop }) : null;
    const tab = door ? await newTab(door) : page;
    let answer = tab;
    try {
      if (c.before) await c.before(tab);
      await tab.bringToFront();
      if (typeof c.open === 'function') await c.open(tab);
      else if (c.open) await tab.goto(url(c.open));
      for (const [label, value] of Object.entries(c.fill ?? {})) await enter(tab, label, value);
      if (c.meanwhile) await c.meanwhile();
      const before = await deskState(watcher, c.list);
      let response;
      if (c.button) ({ answer, response } = await press(tab, c.button, c.inNewTab));
      else response = await tab.goto(url(c.path));

      // Every check runs, so a report names each that fails, not only the first.
      const failing = [];
      for (const [name, run] of checksOf(c, tab, answer, response)) {
        try {
          await run();
        } catch (error) {
          failing.push({ name, error });
        }
      }
      // Whatever the answer looked like, nothing may have been written.
      try {
        assert.deepEqual(await deskState(watcher, c.list), before,
                         'the edit log and the list read as they did before the click');
        if (door) {
          await tab.goto(url('/admin'));
          assert.match(tab.url(), /\/admin\/login/, 'the browser is still not signed in');
        }
      } catch (error) {
        failing.push({ name: 'nothing written', error });
      }

      const where = `${response.status()} ${c.route}`;
      if (failing.length) {
        results.failed.push(c);
        console.log(`FAILED: ${c.name} (${where})`);
        for (const { name, error } of failing)
          console.log(`    ${name}: ${error.message.split('\n')[0]}`);
      } else {
        results.passed.push(c);
        console.log(`ok: ${c.name} (${where})`);
      }
    } catch (error) {
      results.failed.push(c);
      console.log(`FAILED: ${c.name} (${c.route}): ${error.message.split('\n')[0]}`);
    } finally {
      if (answer !== tab) await answer.close();
      if (c.after) await c.after();
      if (door) await door.close();
    }
  }
} finally {
  await browser.close();
  forger.close();
  await stopServer(server);
  rmSync(workDir, { recursive: true, force: true });
}

console.log(`\n${cases.length} desk faults: ${results.passed.length} passed, ` +
            `${results.failed.length} failed.`);
for (const c of results.failed) console.log(`  failed: ${c.name} (${c.route})`);
console.log(`Screenshots in ${screenshotDir}`);
if (results.failed.length) process.exitCode = 1;
