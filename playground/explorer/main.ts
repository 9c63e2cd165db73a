import type { SkillMeta } from 'unplugin-site-skills/runtime'
import * as siteSkills from 'virtual:site-skills'
import { escapeHtml, renderMarkdown } from './markdown'
import { printFields, printReturnsType } from '../../src/codegen/value-type'

type Api = typeof siteSkills
let api: Api = siteSkills
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T

/** The paths a skill or tool is scoped to (`urls`), when it is. */
function pages(urls: readonly string[] | undefined): string {
  if (!urls) return ''
  return `<ul class="urls" aria-label="pages">${urls.map((u) => `<li><code>${escapeHtml(u)}</code></li>`).join('')}</ul>`
}

function toolRows(skill: SkillMeta): string {
  return Object.entries(skill.tools)
    .map(
      ([name, tool]) => `<tr data-tool="${escapeHtml(name)}">
      <td><code>${escapeHtml(name)}</code> <span class="kind ${tool.kind}">${tool.kind}</span>${pages(tool.urls)}</td>
      <td>${escapeHtml(tool.description)}</td>
      <td><code>${escapeHtml(printFields(tool.args))}</code></td>
      <td><code>${escapeHtml(printReturnsType(tool.returns))}</code></td>
    </tr>`,
    )
    .join('')
}

/** What the skill's verification record says (site-skills test --record), when it has one. */
function verified(skill: SkillMeta): string {
  const v = skill.verified
  if (!v) return '<p class="verified none">not verified (no verification.json)</p>'
  const how = v.live ? 'fixtures and live pages' : 'fixtures'
  const text = `verified ${v.date.slice(0, 16).replace('T', ' ')} UTC with unplugin-site-skills ${v.version} on ${how}: ${v.passed} passed, ${v.failed} failed`
  return `<p class="verified${v.failed ? ' failing' : ''}">${escapeHtml(text)}</p>`
}

function skillCard(skill: SkillMeta): string {
  const domains = skill.domains.map((d) => `<li><code>${escapeHtml(d)}</code></li>`).join('')
  return `<article class="skill" id="skill-${escapeHtml(skill.id)}" data-skill="${escapeHtml(skill.id)}">
    <h2>${escapeHtml(skill.name)} <small>${escapeHtml(skill.id)}</small></h2>
    <ul class="domains" aria-label="domains">${domains}</ul>${pages(skill.urls)}${verified(skill)}
    <table><thead><tr><th>tool</th><th>what it does</th><th>args</th><th>returns</th></tr></thead><tbody>${toolRows(skill)}</tbody></table>
    <details class="notes"><summary>${skill.notes.length} note${skill.notes.length === 1 ? '' : 's'}</summary><div class="rendered" data-notes="${escapeHtml(skill.id)}">loading…</div></details>
  </article>`
}

async function renderNotes(id: string): Promise<void> {
  const box = document.querySelector<HTMLElement>(`[data-notes="${CSS.escape(id)}"]`)
  if (!box) return
  const notes = await api.loadNotes(id as Parameters<Api['loadNotes']>[0])
  // A note's path inside the skill is in the skill's metadata, in the same order.
  const paths = api.skills.find((s) => s.id === id)?.notes ?? []
  box.innerHTML =
    notes
      .map((n, i) => {
        const file = `<h3 class="file">${escapeHtml(paths[i] ?? n.fileName)}</h3>`
        return `<section>${file}${renderMarkdown(n.content)}</section>`
      })
      .join('') || '<p>No notes.</p>'
}

function showMatches(): void {
  const url = $<HTMLInputElement>('url').value.trim()
  const out = $('matches')
  for (const el of document.querySelectorAll('.skill.match')) el.classList.remove('match')
  for (const el of document.querySelectorAll('tr.offered')) el.classList.remove('offered')
  if (!url) {
    out.textContent = ''
    return
  }
  const matches = api.siteSkillsForUrl(url)
  out.textContent = matches.length ? `Matches: ${matches.map((s) => s.id).join(', ')}` : 'No skill matches this URL.'
  for (const s of matches) document.getElementById(`skill-${s.id}`)?.classList.add('match')
  // The tools the page is offered: a scoped tool (its own `urls`) only where its path matches.
  for (const { siteId, tool } of Object.values(api.toolDefinitions(url).names)) {
    const row = document.querySelector(`#skill-${CSS.escape(siteId)} tr[data-tool="${CSS.escape(tool)}"]`)
    row?.classList.add('offered')
  }
}

function render(): void {
  const tools = api.skills.reduce((n, s) => n + Object.keys(s.tools).length, 0)
  $('summary').textContent = `${api.skills.length} skills, ${tools} tools`
  $('skills').innerHTML = api.skills.map(skillCard).join('')
  for (const s of api.skills) void renderNotes(s.id)
  showMatches()
}

$('url').addEventListener('input', showMatches)
$('lookup').addEventListener('submit', (event) => {
  event.preventDefault()
  showMatches()
})
render()

// Learnings change while the dev server runs: the plugin updates virtual:site-skills, we re-render.
if (import.meta.hot) {
  import.meta.hot.accept('virtual:site-skills', (next) => {
    if (!next) return
    api = next as unknown as Api
    render()
  })
}
