import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callBrowserTool } from '../../runtime/browser'
import { type LaunchedBrowser, launchBrowser } from '../../runtime/launch'
import type { BrowserToolCode } from '../../runtime/types'
import { createBrowserBundler } from '../../src/compiler/bundle/browser-tools'
import { makeTempDir } from '../helpers/tmp'
import { type Manifest, readManifest, showFixture } from './page-fixtures'

// Rules of the real-site browser tools that the saved real pages (real-sites.test.ts) do not all
// reach: each case is a few rows written here in the markup pattern named beside it, served in
// headless Chromium under the site's address and read by the shipped tool.
const ROOT = resolve(__dirname, '../../learnings')

let browser: LaunchedBrowser
let tmp: { dir: string; cleanup: () => Promise<void> }
const code = new Map<string, BrowserToolCode>()
const manifests = new Map<string, Manifest>()

async function compile(siteId: string, tool: string): Promise<void> {
  const manifest = await readManifest(ROOT, siteId)
  manifests.set(siteId, manifest)
  const realDir = join(ROOT, siteId)
  const absPath = join(realDir, manifest.browserTools[tool]!.path)
  const module = /^\s*(import|export)\b/m.test(await readFile(absPath, 'utf8'))
  const request = { siteId, root: ROOT, tool, absPath, module, realDir }
  const compiled = (await createBrowserBundler({ minify: true }).bundle([request])).get(request)?.code
  if (!compiled) throw new Error(`${siteId}/${tool} did not compile`)
  code.set(`${siteId}/${tool}`, compiled)
}

let pages = 0
async function run(siteId: string, tool: string, url: string, body: string, args: Record<string, unknown> = {}) {
  const file = join(tmp.dir, `page-${++pages}.html`)
  await writeFile(file, `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`)
  const page = await browser.newPage('about:blank')
  try {
    await showFixture(page.client, url, file)
    return (await callBrowserTool(page.client, {
      siteId,
      tool,
      code: code.get(`${siteId}/${tool}`)!,
      args,
      domains: manifests.get(siteId)!.domains,
      timeoutMs: 15_000,
    })) as Record<string, unknown>
  } finally {
    await page.close()
  }
}

beforeAll(async () => {
  tmp = await makeTempDir('tool-rules-')
  browser = await launchBrowser()
  await compile('wikipedia', 'read_infobox')
  await compile('github', 'read_repo')
  await compile('github', 'read_issue')
  await compile('github', 'read_markdown')
  await compile('mdn', 'read_article')
  await compile('wikipedia', 'read_section')
})

afterAll(async () => {
  await browser?.close()
  await tmp?.cleanup()
})

const ARTICLE = 'https://en.wikipedia.org/wiki/Case'
const infobox = (rows: string) =>
  `<div id="mw-content-text"><div class="mw-parser-output"><table class="infobox"><tbody>${rows}</tbody></table></div></div>`
const entriesOf = (result: Record<string, unknown>) =>
  (result.entries as { label: string; value: string; group: string | null }[]).map((e) => [e.label, e.value, e.group])

describe('read_infobox rules', () => {
  it('keeps a header row and the full-width row under it together across a hidden child-box row', async () => {
    // Module:Infobox closes an embedded child box with `<tr style="display:none"><td colspan="2">`.
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><th colspan="2" class="infobox-above">Lang</th></tr>' +
          '<tr><th scope="row" class="infobox-label">Paradigm</th><td class="infobox-data">functional</td></tr>' +
          '<tr><th colspan="2" class="infobox-header">Influenced by</th></tr>' +
          '<tr style="display:none"><td colspan="2">\n</td></tr>' +
          '<tr><td colspan="2" class="infobox-full-data"><ul><li>ML</li><li>Haskell</li></ul></td></tr>',
      ),
    )
    expect(entriesOf(result)).toEqual([
      ['Paradigm', 'functional', null],
      ['Influenced by', 'ML; Haskell', 'Influenced by'],
    ])
  })

  it('reads an infobox that fills a full-width cell of another as part of it, and counts both', async () => {
    const inner =
      '<table class="infobox"><tbody><tr><th colspan="2" class="infobox-above">Career</th></tr>' +
      '<tr><th scope="row" class="infobox-label">Position</th><td class="infobox-data">Forward</td></tr></tbody></table>'
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><th colspan="2" class="infobox-above">A Person</th></tr>' +
          '<tr><th scope="row" class="infobox-label">Born</th><td class="infobox-data">1 May 1990</td></tr>' +
          `<tr><td colspan="2" class="infobox-full-data">${inner}</td></tr>`,
      ),
    )
    expect(result.title).toBe('A Person')
    expect(entriesOf(result)).toEqual([
      ['Born', '1 May 1990', null],
      ['Position', 'Forward', 'Career'],
    ])
    expect(result.infoboxes).toBe(2)
  })

  it('reads a table of native names inside the title cell as title text, not as rows', async () => {
    // Country infoboxes (2026) put "Afar: ..." names in an infobox-subbox inside the title.
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><th colspan="2" class="infobox-above"><div class="fn org">Federal Republic</div>' +
          '<div class="collapsible-list"><table class="infobox-subbox"><tbody><tr><th scope="row" class="infobox-label">Afar:</th>' +
          '<td class="infobox-data">Ummuno</td></tr></tbody></table></div></th></tr>' +
          '<tr><th scope="row" class="infobox-label">Capital</th><td class="infobox-data">Addis Ababa</td></tr>',
      ),
    )
    expect(result.title).toBe('Federal Republic; Afar: Ummuno')
    expect(entriesOf(result)).toEqual([['Capital', 'Addis Ababa', null]])
  })

  it('gives each bold "Label:" line of a full-width cell its own entry, continuations included', async () => {
    // Country infoboxes: "Anthem:" and "Royal anthem:" in one cell; a motto's "(English: ...)" line.
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><th colspan="2" class="infobox-above">Kingdom</th></tr>' +
          '<tr><td colspan="2" class="infobox-full-data"><b>Motto: </b><div class="plainlist"><ul>' +
          '<li><i lang="nl">Eendracht maakt macht</i> (Dutch)</li><li><i lang="fr">L\'union fait la force</i> (French)</li></ul></div>' +
          '<div>(English: "Unity makes strength")</div></td></tr>' +
          '<tr><td colspan="2" class="infobox-full-data anthem"><b>Anthem:</b> "O Canada"' +
          '<div class="center"><audio controls src="/anthem.oga"></audio></div><div class="ib-country-anthem">' +
          '<b>Royal anthem:</b> "God Save the King"</div></td></tr>',
      ),
    )
    expect(entriesOf(result)).toEqual([
      [
        'Motto',
        'Eendracht maakt macht (Dutch); L\'union fait la force (French); (English: "Unity makes strength")',
        null,
      ],
      ['Anthem', '"O Canada"', null],
      ['Royal anthem', '"God Save the King"', null],
    ])
  })

  it('keeps a labelled full-width row that holds an icon image once the main image is taken', async () => {
    // Old (2019) country infoboxes: untagged full-width cells, the flag first, then "Anthem:" rows.
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><td colspan="2" style="text-align:center"><img src="/flag.png" alt="Flag"></td></tr>' +
          '<tr><td colspan="2" style="text-align:center"><b>Anthem:</b> "Hymn"<br>' +
          '<img src="/speaker.png" alt="Play" width="20" height="20"></td></tr>',
      ),
    )
    expect((result.image as { alt: string }).alt).toBe('Flag')
    expect(entriesOf(result)).toEqual([['Anthem', '"Hymn"', null]])
  })

  it('keeps a picture whose caption reads like a label as the image, not as an entry', async () => {
    // City infoboxes caption their montage "Clockwise from top: ..."; later maps are skipped.
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><td colspan="2" style="text-align:center"><img src="/montage.jpg" alt="" width="290" height="400">' +
          '<div>Clockwise from top: the harbour, the old town</div></td></tr>' +
          '<tr><th scope="row">Country</th><td>Somewhere</td></tr>' +
          '<tr><td colspan="2" class="infobox-full-data"><img src="/map.png" alt="Map" width="250" height="250">' +
          '<div>Location: the north</div></td></tr>',
      ),
    )
    expect(result.image).toMatchObject({ alt: '', caption: 'Clockwise from top: the harbour, the old town' })
    expect(entriesOf(result)).toEqual([['Country', 'Somewhere', null]])
  })

  it('reads a labelled picture row as an entry when the label comes before the picture', async () => {
    // Country infoboxes (2026): "Dual flag: Wiphala" above a flag, "Coat of arms:" above the arms.
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><td colspan="2" class="infobox-image"><img src="/flag.png" alt="Flag" width="125" height="80"></td></tr>' +
          '<tr><td colspan="2" class="infobox-full-data"><b>Coat of arms:</b><br>' +
          '<img src="/arms.png" alt="" width="250" height="120"><br>Used in Scotland (right)</td></tr>',
      ),
    )
    expect((result.image as { alt: string }).alt).toBe('Flag')
    expect(entriesOf(result)).toEqual([['Coat of arms', 'Used in Scotland (right)', null]])
  })

  it('reads a child box in a full-width cell in place even when the cell holds a line beside it', async () => {
    // A box embedded with its own caption line: the rows were lost when the cell's text differed from the box's.
    const child =
      '<div>Part of the series</div><table class="infobox-subbox"><tbody>' +
      '<tr><th scope="row" class="infobox-label">Developer</th><td class="infobox-data">A Team</td></tr>' +
      '<tr><th scope="row" class="infobox-label">Licence</th><td class="infobox-data">MIT</td></tr></tbody></table>'
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><th colspan="2" class="infobox-above">Tool</th></tr>' +
          '<tr><th scope="row" class="infobox-label">Paradigm</th><td class="infobox-data">functional</td></tr>' +
          `<tr><td colspan="2" class="infobox-full-data">${child}</td></tr>`,
      ),
    )
    expect(entriesOf(result)).toEqual([
      ['Paradigm', 'functional', null],
      ['Developer', 'A Team', null],
      ['Licence', 'MIT', null],
    ])
  })

  it('reads a plain table of label and value rows that fills a full-width cell (old boxes), not a table of pictures', async () => {
    // Old (2017) boxes list their members in a table inside one cell: "apostrophe | ’".
    const members =
      '<table><tbody><tr><th colspan="2">Punctuation</th></tr>' +
      '<tr><td><a href="/wiki/Apostrophe">apostrophe</a></td><td>’</td></tr>' +
      '<tr><td><a href="/wiki/Comma">comma</a></td><td>,</td></tr></tbody></table>'
    const pictures =
      '<table><tbody><tr><td><img src="/flag.png" alt="Flag" width="125"></td><td><img src="/arms.png" alt="Arms" width="85"></td></tr>' +
      '<tr><td>Flag</td><td>Coat of arms</td></tr></tbody></table>'
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><th colspan="2">Marks</th></tr>' +
          `<tr><td colspan="2" style="text-align:center">${pictures}</td></tr>` +
          `<tr class="noprint"><td colspan="2" style="text-align:center">${members}</td></tr>`,
      ),
    )
    expect((result.image as { alt: string }).alt).toBe('Flag')
    expect(entriesOf(result)).toEqual([
      ['apostrophe', '’', 'Punctuation'],
      ['comma', ',', 'Punctuation'],
    ])
  })

  it("ends a header's rows at page furniture: a print-hidden portal bar and the v-t-e navbar are no entries", async () => {
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><th colspan="2">Marks</th></tr>' +
          '<tr class="noprint"><th colspan="2">Related</th></tr>' +
          '<tr class="noprint"><td colspan="2"><ul><li>Diacritics</li><li>Whitespace</li></ul></td></tr>' +
          '<tr><td colspan="2" class="hlist noprint"><ul><li><a href="/wiki/Category:X">Category</a></li></ul></td></tr>' +
          '<tr><td colspan="2"><div class="plainlinks hlist navbar mini"><ul><li>v</li><li>t</li><li>e</li></ul></div></td></tr>',
      ),
    )
    expect(entriesOf(result)).toEqual([['Related', 'Diacritics; Whitespace', 'Related']])
  })

  it('separates a label and a block that follows its text by a space, not by nothing', async () => {
    // Country infoboxes (2026): `Capital<div class="ib-country-largest">and largest city</div>`.
    const result = await run(
      'wikipedia',
      'read_infobox',
      ARTICLE,
      infobox(
        '<tr><th scope="row" class="infobox-label">Capital<div class="ib-country-largest">and largest city</div></th>' +
          '<td class="infobox-data">Paris</td></tr>',
      ),
    )
    expect(entriesOf(result)).toEqual([['Capital and largest city', 'Paris', null]])
  })
})

describe('read_repo rules', () => {
  it('reads the About box from the React app JSON when the page does not draw it', async () => {
    // The React overview's payload.sidebarAbout, before (or without) the browser drawing the box.
    const payload = {
      payload: {
        sidebarAbout: {
          description: 'A small library. ',
          ownerLogin: 'octo',
          repoName: 'lib',
          stargazerCount: 12,
          forksCount: 3,
          watcherCount: 2,
          topics: [{ name: 'parsing' }, { name: 'html' }],
        },
      },
    }
    const body =
      '<meta name="octolytics-dimension-repository_nwo" content="octo/lib">' +
      '<meta property="og:description" content="Contribute to octo/lib development by creating an account on GitHub.">' +
      `<react-app app-name="code-view"><script type="application/json" data-target="react-app.embeddedData">${JSON.stringify(payload)}</script></react-app>`
    const result = await run('github', 'read_repo', 'https://github.com/octo/lib', body)
    expect(result).toMatchObject({
      repo: 'octo/lib',
      description: 'A small library.',
      stars: 12,
      forks: 3,
      watchers: 2,
      topics: ['parsing', 'html'],
    })
  })

  it('ignores About data of another repository in the JSON', async () => {
    const payload = {
      payload: { sidebarAbout: { description: 'Not this one', ownerLogin: 'else', repoName: 'where' } },
    }
    const body =
      '<meta name="octolytics-dimension-repository_nwo" content="octo/lib">' +
      '<meta property="og:description" content="The real about text.  - octo/lib">' +
      `<script type="application/json" data-target="react-app.embeddedData">${JSON.stringify(payload)}</script>`
    const result = await run('github', 'read_repo', 'https://github.com/octo/lib', body)
    expect(result.description).toBe('The real about text.')
  })
})

describe('read_issue rules', () => {
  it('reads a pull request of the server-rendered layout: header, state, labels, body and comments', async () => {
    // Pull request pages (and issues before the React viewer): .gh-header-*, .timeline-comment.
    const comment = (user: string, body: string) =>
      `<div class="timeline-comment"><a class="author" href="/${user}">${user}</a>` +
      `<div class="comment-body markdown-body">${body}</div></div>`
    const body =
      '<h1 class="gh-header-title"><bdi class="js-issue-title markdown-title">Fix the parser</bdi> ' +
      '<span class="gh-header-number">#42</span></h1>' +
      '<div class="gh-header-meta"><span class="State State--merged" title="Status: Merged">Merged</span>' +
      '<a class="author" href="/octo">octo</a> merged 2 commits</div>' +
      '<div class="js-issue-labels"><a class="IssueLabel" href="/o/r/labels/bug">bug</a></div>' +
      '<div class="js-discussion">' +
      comment('octo', '<p>Fixes <code>parse()</code>:</p><ul><li>one</li><li>two</li></ul>') +
      comment('reviewer', '<p>Looks good.</p>') +
      comment('octo', '<p>Thanks!</p>') +
      '</div>'
    const result = await run('github', 'read_issue', 'https://github.com/o/r/pull/42', body)
    expect(result).toEqual({
      number: 42,
      kind: 'pull request',
      title: 'Fix the parser',
      state: 'Merged',
      author: 'octo',
      labels: ['bug'],
      body: 'Fixes `parse()`:\n\n- one\n- two',
      commentCount: 2,
      comments: [
        { user: 'reviewer', text: 'Looks good.' },
        { user: 'octo', text: 'Thanks!' },
      ],
      next: null,
    })
  })
})

describe('markdown readers on a hostile page', () => {
  // The HTML parser stops nesting at 512 elements; a page's script can nest without end. The
  // readers walk the tree recursively: past 40 levels they read an element's text flat.
  const nest = (root: string, tags: string[], depth: number) =>
    `<script>let at = document.querySelector(${JSON.stringify(root)}); const tags = ${JSON.stringify(tags)};` +
    `for (let i = 0; i < ${depth}; i++) { const e = document.createElement(tags[i % tags.length]); at.append(e); at = e }` +
    'at.append("the deepest words")</script>'

  it('read_markdown reads a README nested 20,000 elements deep', async () => {
    const body = `<article class="markdown-body"><p>Top.</p><div id="deep" style="display:none"></div></article>${nest('#deep', ['div', 'blockquote', 'span', 'ul', 'li'], 20_000)}`
    const result = await run('github', 'read_markdown', 'https://github.com/o/r', body)
    expect(result.error).toBeUndefined()
    expect(result.text).toMatch(/^Top\.\n\n/)
    expect(result.text).toContain('the deepest words')
  })

  it('read_article reads an article whose definition lists nest 20,000 elements deep', async () => {
    const body = `<main id="content"><h1>Deep</h1><div id="deep" style="display:none"></div></main>${nest('#deep', ['dl', 'dd', 'div', 'blockquote'], 20_000)}`
    const result = await run('mdn', 'read_article', 'https://developer.mozilla.org/en-US/docs/Web/Deep', body)
    expect(result.error).toBeUndefined()
    expect(result.text).toMatch(/^# Deep\n\n/)
    expect(result.text).toContain('the deepest words')
  })

  it('read_section reads a lead whose list nests 20,000 elements deep', async () => {
    const lead = '<p>Lead.</p><ul><li>top<ul style="display:none"><li id="deep">below</li></ul></li></ul>'
    const body = `<div id="mw-content-text"><div class="mw-parser-output">${lead}</div></div>${nest('#deep', ['ul', 'li'], 20_000)}`
    const result = await run('wikipedia', 'read_section', ARTICLE, body)
    expect(result.error).toBeUndefined()
    expect(result.text).toMatch(/^Lead\.\n\n- top\n {2}- below/)
    expect(result.text).toContain('the deepest words')
  })
})
