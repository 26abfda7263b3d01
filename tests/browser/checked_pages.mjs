// The page types the outside tools (Nu HTML Checker, axe-core, Lighthouse) check: one of
// each kind a reader can open.
export const checkedPages = {
  home: '/',
  comparison: '/compare/cursor-background-agent-vs-codestral-2-1',
  'unpublished-pair': '/compare/codestral-2-1-vs-code-llama-4',
  tool: '/tools/codestral-2-1',
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
  'not-found': '/no-such-page',
};
