import { resolve } from 'node:path'
import type { CompileResult } from '../../compiler/compile'
import { createDiagnostic, type Diagnostic } from '../../compiler/diagnostics/catalog'
import { displayFile, displayPath } from '../../compiler/diagnostics/report'
import { isPackageName } from '../../compiler/discover/skill-packages'
import { isInside } from '../../compiler/fs/paths'
import type { SkillModel } from '../../compiler/model'
import { skillFiles } from '../../pack/skill-files'
import { type PackFiles, type PackSkill, packFiles } from '../../pack/contents'
import { scanFile } from '../../pack/secrets'
import { outProblem, writePack } from '../../pack/write'
import { type CliIO, UsageError, writeLine } from '../io'
import { givenRoots } from '../roots'
import type { Root } from '../../compiler/discover/roots'
import type { Args } from '../command-table'
import { CommandFailure } from '../failure'
import { createStyle, plural } from '../format'
import { checkSkillIds, compileRoots } from '../compile-roots'
import { jsonReport, printReports } from './validate'

const VERSION_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/

/** The chosen valid skills (all when no id is given). */
function chosenSkills(result: CompileResult, ids: readonly string[]): SkillModel[] {
  const models = result.skills.map((s) => s.model).filter((m) => ids.length === 0 || ids.includes(m.id))
  if (models.length === 0) throw new UsageError('no skill to pack')
  return models
}

/** The package name: --name, else `site-skills-<id>` for one skill and `site-skills-pack` for several. */
function packageName(args: Args<'pack'>, models: readonly SkillModel[]): string {
  const name = args.name ?? (models.length === 1 ? `site-skills-${models[0]!.id}` : 'site-skills-pack')
  if (!isPackageName(name)) throw new UsageError(`--name ${JSON.stringify(name)} is no npm package name`)
  return name
}

/** Reads every chosen skill's files and scans them; what cannot go in the pack comes back as findings. */
async function collect(models: readonly SkillModel[]): Promise<{ skills: PackSkill[]; findings: Diagnostic[] }> {
  const skills: PackSkill[] = []
  const findings: Diagnostic[] = []
  for (const model of models) {
    const { files, refused } = skillFiles(model.realDir)
    const at = (rel: string) => `${model.id}/${rel}`
    for (const r of refused)
      findings.push(createDiagnostic(model, at(r.rel), { code: 'pack-file', data: { reason: r.reason } }))
    for (const file of files) {
      for (const secret of await scanFile(file.bytes, file.rel)) {
        const { line, column } = secret
        const data = { rule: secret.rule, what: secret.message }
        findings.push(createDiagnostic(model, at(file.rel), { code: 'secret-found', data, line, column }))
      }
    }
    const tools = model.tools.map((t) => t.name)
    skills.push({ id: model.id, name: model.name, domains: model.domains, tools, files })
  }
  return { skills, findings }
}

function printFindings(findings: readonly Diagnostic[], io: CliIO, roots: readonly Root[]): void {
  const style = createStyle(io.stderr as NodeJS.WriteStream)
  // No code frame: it would print the secret.
  for (const d of findings)
    writeLine(
      io.stderr,
      `${style.red('✖')} ${displayFile(d, io.cwd, roots)}:${d.line}:${d.column}  error ${d.code}  ${d.message}`,
    )
  const files = new Set(findings.map((d) => `${d.root}\0${d.file}`)).size
  const hints = [...new Set(findings.map((d) => d.hint))]
  for (const hint of hints) writeLine(io.stderr, `  hint: ${hint}`)
  writeLine(
    io.stderr,
    style.red(`${plural(findings.length, 'finding')} in ${plural(files, 'file')}: nothing was written`),
  )
}

const size = (files: PackFiles) => [...files.values()].reduce((n, b) => n + b.length, 0)

/**
 * `site-skills pack [SITE...] --out DIR`: writes an installable skill package of the chosen skills
 * (all by default): their files as they are, digests.json, a README and a package.json whose
 * `siteSkills.root` makes it a root (SPEC 9 and 10). Refused (exit 1, nothing written) when a chosen
 * skill has an error, a file cannot be packed, or the secret scan finds something.
 */
export async function packCommand(args: Args<'pack'>, io: CliIO): Promise<number> {
  if (!args.out) throw new UsageError('pack needs --out DIR: the folder to write the package in')
  const version = args['package-version'] ?? '0.0.0'
  if (!VERSION_RE.test(version))
    throw new UsageError(`--package-version ${JSON.stringify(version)} is no semver version`)
  const result = await compileRoots(args, io)
  const ids = args.positionals
  checkSkillIds(
    ids,
    result.records.map((r) => r.folder.id),
  )
  const counted = (d: Pick<Diagnostic, 'severity' | 'siteId'>) =>
    d.severity === 'error' && (ids.length === 0 || ids.includes(d.siteId) || !d.siteId)
  if (result.diagnostics.some(counted)) {
    if (args.json) {
      const { diagnostics } = jsonReport(result, io.cwd)
      writeLine(io.stdout, JSON.stringify({ ok: false, diagnostics: diagnostics.filter(counted) }, null, 2))
    } else printReports(result, io)
    writeLine(io.stderr, 'site-skills: the skills to pack have errors (see above): nothing was written')
    return 1
  }
  const models = chosenSkills(result, ids)
  const roots = givenRoots(result)
  const name = packageName(args, models)
  const out = resolve(io.cwd, args.out)
  const inside = models.find((m) => isInside(m.realDir, out))
  if (inside) throw new UsageError(`--out ${args.out} is inside the skill ${inside.id}: write the pack elsewhere`)
  const problem = outProblem(out)
  if (problem) throw new CommandFailure('pack-out', `${displayPath(out, io.cwd, roots)} ${problem}`)
  const { skills, findings } = await collect(models)
  if (findings.length > 0) {
    if (args.json) {
      // As `validate --json` lists them: `file` relative to `root`.
      const diagnostics = findings.map((d) => ({ ...d, root: displayPath(d.root, io.cwd, roots) }))
      writeLine(io.stdout, JSON.stringify({ ok: false, diagnostics }, null, 2))
    }
    printFindings(findings, io, roots)
    return 1
  }
  const files = packFiles(name, version, skills)
  writePack(out, files)
  const shown = displayPath(out, io.cwd, roots)
  const bytes = size(files)
  if (args.json) {
    const summary = { ok: true, name, version, out: shown, skills: skills.map((s) => s.id), files: files.size, bytes }
    writeLine(io.stdout, JSON.stringify(summary, null, 2))
    return 0
  }
  writeLine(io.stdout, `packed ${plural(skills.length, 'skill')} (${skills.map((s) => s.id).join(', ')}) into ${shown}`)
  writeLine(io.stdout, `  ${name}@${version}: ${plural(files.size, 'file')}, ${bytes} bytes`)
  // `npm i dist/pack` would be read as a GitHub repository: a folder needs ./ or /.
  const folder = /^[./]/.test(shown) ? shown : `./${shown}`
  writeLine(io.stdout, `  install it with npm i ${folder}, then use it as a root: --root ${name}`)
  return 0
}
