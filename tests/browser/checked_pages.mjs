// The page types the outside tools (Nu HTML Checker, axe-core, Lighthouse) check: one of
// each kind a reader can open.
import assert from 'node:assert/strict';
import { readerReads } from './verdict_server.mjs';

export const checkedPages = {
  home: '/',
  comparison: '/compare/cursor-background-agent-vs-codestral-2-1',
  'unpublished-pair': '/compare/codestral-2-1-vs-code-llama-4',
  tool: '/tools/codestral-2-1',
  alternatives: '/tools/codestral-2-1/alternatives',
  'side-by-side': '/compare/codestral-2-1-vs-cursor-background-agent-vs-mistral-small-3-1',
  tools: '/tools',
  comparisons: '/comparisons',
  categories: '/categories',
  category: '/categories/developer-tools',
  reviewer: '/reviewers/builder',
  reviewers: '/reviewers',
  methodology: '/methodology',
  search: '/search?q=codestral',
  'search-nothing': '/search?q=zyzzyva',
  subscribe: '/subscribe',
  transparency: '/transparency',
  receipts: '/receipts',
  'not-found': '/no-such-page',
};

// A reader votes on the comparison above, so that the pages then carry tallies, "your vote"
// and what the counting set aside. Having read the page, they Ship its first tool: counted.
// Three other readers of the same network (this machine) read it and Ship its second tool and
// pick it head-to-head: counted. The reader then does the same, and both are stored but set
// aside (too many from one network), shown to them with a note in each form and to
// everyone beside the numbers.
export async function voteAsAReader(page, origin) {
  await page.goto(origin + checkedPages.comparison);
  await readerReads(page);
  await page.getByRole('button', { name: 'Ship Cursor Background Agent' }).click();
  await page.waitForURL(/#tool-cursor-background-agent$/);

  const shipAndPick = async (reader) => {
    await readerReads(reader);
    await reader.getByRole('button', { name: 'Ship Codestral 2.1' }).click();
    await reader.waitForURL(/#tool-codestral-2-1$/);
    await readerReads(reader);
    await reader.getByRole('button', { name: 'Codestral 2.1', exact: true }).click();
    await reader.waitForURL(/#community$/);
  };
  const others = await Promise.all([1, 2, 3].map(() => page.context().browser().newContext()));
  await Promise.all(others.map(async (context) => {
    const reader = await context.newPage();
    await reader.goto(origin + checkedPages.comparison);
    await shipAndPick(reader);
  }));
  await Promise.all(others.map((context) => context.close()));

  await shipAndPick(page);
  const why = 'is stored but not counted: too many from one network.';
  assert.deepEqual((await page.locator('.vote-note').allTextContents()).map((note) => note.trim()),
                   [`Your pick of Codestral 2.1 ${why} How votes are counted`,
                    `Your Ship vote ${why} How votes are counted`]);
}
