import { toMarkdown } from './lib/markdown.js'

/**
 * The issue or pull request whose page is open: number, title, state, author, labels, the body
 * as compact markdown, and its comments (`limit` at a time from `offset`). Reads the React issue
 * viewer (issues, 2023 on: `data-testid` hooks) and the server-rendered page (pull requests, and
 * issues before: `.gh-header-*`, `.timeline-comment`).
 */
export default async function readIssue(args) {
  const limit = Number.isInteger(args?.limit) ? Math.max(1, args.limit) : 20
  const offset = Number.isInteger(args?.offset) ? Math.max(0, args.offset) : 0
  const match = /^\/[^/]+\/[^/]+\/(issues|pull)\/(\d+)/.exec(location.pathname)
  if (!match) return { error: 'not an issue or pull request page (/owner/repo/issues/N or /pull/N)' }
  const clean = (node) => (node ? node.textContent.replace(/\s+/g, ' ').trim() : null)
  const one = (...selectors) => {
    for (const selector of selectors) {
      const node = document.querySelector(selector)
      if (node) return node
    }
    return null
  }
  const markdown = (node) => (node ? toMarkdown(node, { maxChars: 1e9 }).text : null)

  const title = one('[data-testid="issue-title"]', '.gh-header-title .js-issue-title', '.gh-header-title')
  if (!title) return { error: 'no issue title on this page' }
  // The React viewer's body and comments each hold one `markdown-body`; the classic page's are
  // `.timeline-comment`s, the first of them the body.
  const reactBody = one('[data-testid="issue-body"]')
  const classic = [...document.querySelectorAll('.js-discussion .timeline-comment, .js-discussion .review-comment')]
    .filter((c) => c.querySelector('.comment-body'))
  const bodyNode = reactBody
    ? reactBody.querySelector('.markdown-body')
    : classic[0] && classic[0].querySelector('.comment-body')
  const author = clean(one('[data-testid="issue-body-header-author"]', '.gh-header-meta a.author', '.timeline-comment a.author'))
  const stateNode = one('[data-testid="header-state"]', '.gh-header-meta .State', '.State')
  const state = clean(stateNode)
  const labels = [...document.querySelectorAll('[data-testid="issue-labels"] a, .js-issue-labels a.IssueLabel, .sidebar-labels .IssueLabel')]
    .map(clean).filter(Boolean)

  const commentNodes = reactBody
    ? [...document.querySelectorAll('.react-issue-comment')].map((c) => ({
        user: clean(c.querySelector('[data-testid="avatar-link"]')),
        body: c.querySelector('.markdown-body'),
      }))
    : classic.slice(1).map((c) => ({ user: clean(c.querySelector('a.author')), body: c.querySelector('.comment-body') }))
  const comments = commentNodes.slice(offset, offset + limit).map((c) => ({ user: c.user, text: markdown(c.body) }))
  const next = offset + comments.length < commentNodes.length ? offset + comments.length : null
  return {
    number: Number(match[2]),
    kind: match[1] === 'pull' ? 'pull request' : 'issue',
    title: clean(title).replace(/\s*#\d+$/, ''),
    state,
    author,
    labels,
    ...(offset === 0 ? { body: markdown(bodyNode) } : {}),
    commentCount: commentNodes.length,
    comments,
    next,
  }
}
