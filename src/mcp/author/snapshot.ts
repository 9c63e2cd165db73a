import type { CallToolResult } from '@modelcontextprotocol/server'
import { urlMatchesDomains } from '../../../runtime/internal'
import { formatFixture } from '../../compiler/fixture-format/header'
import { isInside } from '../../compiler/fs/paths'
import { SNAPSHOT_CHANGES } from '../../examples/capture-page'
import { capturePage, fixtureNameFromUrl } from '../../examples/fixture'
import { currentTab } from '../calls'
import type { AuthorContext, Caller } from './author-context'
import { locateSkill } from './skill-place'
import { jsonResult, optionalText, Refusal, shownDiagnostic } from './author-results'
import { keepStaged, refuseClaimed } from './cross'
import { type Change, commitChanges, stageSkill } from './stage'

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/

/** A skill id from a host: `shop.example.com` -> `shop-example-com`. */
function idFromHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 128)
}

/** `shop-example-com` -> `Shop Example Com`. */
const nameFromId = (id: string) =>
  id.replace(/(^|-)([a-z0-9])/g, (_, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`)

function newManifest(siteId: string, host: string): string {
  const manifest = { id: siteId, name: nameFromId(siteId), domains: [host], nodeTools: {}, browserTools: {} }
  return `${JSON.stringify(manifest, null, 2)}\n`
}

/** The skill of the writable root that the tab's page belongs to, if the server serves one. */
async function skillOfTab(context: AuthorContext, url: string): Promise<string | undefined> {
  const state = await context.skills.current()
  const mine = new Set(state.skills.filter((s) => isInside(context.dir, s.model.realDir)).map((s) => s.model.id))
  return state.api.siteSkillsForUrl(url).find((s) => mine.has(s.id))?.id
}

/** `site_skills_snapshot`: the caller's tab as fixtures/NAME.html of a skill (made from the host when new). */
export async function snapshot(
  context: AuthorContext,
  caller: Caller,
  args: Record<string, unknown> | undefined,
): Promise<CallToolResult> {
  const tab = await currentTab(caller.client, context.tabs, optionalText(args, 'tab'))
  if (!tab) throw new Refusal('target-not-found', 'you have no tab: open the page with site_skills_navigate first')
  if (!/^https?:/.test(tab.url)) throw new Refusal('invalid-target', `your tab is not on a web page (${tab.url})`)
  const host = new URL(tab.url).hostname
  const siteId = optionalText(args, 'site') ?? (await skillOfTab(context, tab.url)) ?? idFromHost(host)
  const name = optionalText(args, 'name')
  if (name !== undefined && !NAME_RE.test(name))
    throw new Refusal('invalid-args', `"name" must be letters, digits, ".", "_" or "-", not ${JSON.stringify(name)}`)
  const place = locateSkill(context.dir, context.roots, siteId)
  if (!place.exists) await refuseClaimed(context, tab.url)
  return context.locked(siteId, async () => {
    const page = await capturePage(await context.tabs.session(tab.id))
    if (!place.exists && page.url !== tab.url) await refuseClaimed(context, page.url)
    const fixture = `fixtures/${name ?? fixtureNameFromUrl(page.url)}.html`
    const text = formatFixture(
      { url: page.url, captured: new Date().toISOString(), changes: SNAPSHOT_CHANGES },
      page.html,
    )
    const changes: Change[] = [
      ...(place.exists ? [] : [{ rel: 'manifest.json', data: newManifest(siteId, new URL(page.url).hostname) }]),
      { rel: fixture, data: text },
    ]
    const stage = stageSkill(context.dir, siteId, place.real)
    try {
      const refused = stage.apply(changes)
      if (refused) throw new Refusal(refused.code, refused.message)
      const compiled = await stage.compile(context.compat)
      const diagnostics = compiled.diagnostics.map(shownDiagnostic)
      const record = compiled.result.records.find((r) => r.folder.id === siteId)
      const patterns = record?.domainSites.map((s) => s.pattern) ?? []
      if (place.exists && patterns.length && !urlMatchesDomains(page.url, patterns))
        throw new Refusal(
          'domain-mismatch',
          `your tab is at ${page.url}, which does not match ${siteId}'s domains (${patterns.join(', ')}): nothing ` +
            `was written`,
        )
      const refuse = (why: string, all = diagnostics) =>
        jsonResult({ kept: false, site: siteId, diagnostics: all, why: `${why}: nothing was written` }, true)
      if (diagnostics.some((d) => d.severity === 'error')) return refuse('the skill does not validate')
      const kept = await keepStaged(context, { records: compiled.result.records, siteId, real: place.real }, () => {
        const committed = commitChanges(context.dir, siteId, place.exists, changes)
        if (committed) throw new Refusal(committed.code, committed.message)
      })
      if (!kept.kept)
        return refuse('the skills of every root together do not validate', [...diagnostics, ...kept.findings])
      return jsonResult({
        kept: true,
        site: siteId,
        created: !place.exists,
        file: `${siteId}/${fixture}`,
        url: page.url,
        characters: page.html.length,
        example: { name: fixture.slice('fixtures/'.length, -'.html'.length), args: {}, url: page.url, fixture },
        diagnostics: [...diagnostics, ...kept.findings],
      })
    } finally {
      stage.remove()
    }
  })
}
