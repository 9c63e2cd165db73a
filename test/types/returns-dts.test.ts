import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSUMER_OPTIONS, createEditor, markPositions } from '../helpers/editor'
import { DRIFT_SKILL } from '../helpers/returns-skill'
import { REPO_ROOT, makeTempDir, writeTree } from '../helpers/tmp'
import { runBin } from '../helpers/spawn'

/** Maps beside declared properties, open objects, a nullable result and one that may be absent. */
const MAPS_SKILL = {
  'maps/manifest.json': {
    id: 'maps',
    name: 'Maps',
    domains: ['maps.example'],
    notes: [],
    nodeTools: {
      counts: {
        description: 'Counts by label, with their total.',
        path: 'tools/maps.js',
        callable: 'counts',
        args: {
          labels: {
            type: 'object',
            required: false,
            description: 'Label names by id.',
            additionalProperties: { type: 'string' },
          },
          after: { type: 'string', required: true, nullable: true, description: 'Cursor or null.' },
        },
        returns: {
          type: 'object',
          description: 'Counts.',
          properties: { total: { type: 'integer', required: true }, note: { type: 'string' } },
          additionalProperties: { type: 'integer' },
        },
      },
      open: {
        description: 'Anything goes.',
        path: 'tools/maps.js',
        callable: 'open',
        args: {},
        returns: {
          type: 'object',
          description: 'Open.',
          nullable: true,
          properties: { id: { type: 'string', required: true } },
          additionalProperties: true,
        },
      },
      maybe: {
        description: 'Maybe a list.',
        path: 'tools/maps.js',
        callable: 'maybe',
        args: {},
        returns: {
          type: 'array',
          description: 'Or nothing.',
          required: false,
          items: { type: 'string', nullable: true },
        },
      },
    },
  },
  'maps/tools/maps.js':
    'export const counts = () => ({ total: 0 })\nexport const open = () => null\nexport const maybe = () => undefined\n',
}

const USE = markPositions(`import { sites } from 'virtual:site-skills'

const r = await sites.drift.products({ mode: 'good' })
const price: number | null = r.products[0]!.⟨price⟩price
// @ts-expect-error a nullable price may be null
const p2: number = r.products[0]!.price
const ⟨stock⟩stock: Record<string, number | null> = r.stock
// @ts-expect-error a map value may be null
const s2: number = r.stock.a
// @ts-expect-error a property without required may be absent
const note: string = r.products[0]!.note
const cursor: string | null = r.cursor
const id: string = r.products[0]!.id
const c = await sites.maps.⟨counts⟩counts({ labels: { a: 'A' }, after: null })
const total: number = c.total
const label: number | string | undefined = c['some-label']
// @ts-expect-error a map's values are integers
sites.maps.counts({ labels: { a: 1 }, after: null })
// @ts-expect-error a required nullable argument must be passed
sites.maps.counts({})
const o = await sites.maps.open()
// @ts-expect-error the result may be null
void o.id
const extra: unknown = o?.anything
const m: (string | null)[] | null | undefined = await sites.maps.maybe()
void price; void p2; void stock; void s2; void note; void cursor; void id; void total; void label; void extra; void m
`)

let tmp: Awaited<ReturnType<typeof makeTempDir>>
beforeAll(async () => {
  tmp = await makeTempDir('returns-dts-')
  await mkdir(join(tmp.dir, 'node_modules'))
  await symlink(REPO_ROOT, join(tmp.dir, 'node_modules/unplugin-site-skills'))
  await writeTree(join(tmp.dir, 'learnings'), { ...DRIFT_SKILL, ...MAPS_SKILL })
  const run = await runBin(
    ['types', '--root', join(tmp.dir, 'learnings'), '--out', join(tmp.dir, 'site-skills.d.ts')],
    { cwd: tmp.dir },
  )
  expect(run.code).toBe(0)
  await writeFile(join(tmp.dir, 'use.ts'), USE.text)
  await writeFile(join(tmp.dir, 'bare.ts'), USE.text.replaceAll('// @ts-expect-error', '//'))
})
afterAll(() => tmp.cleanup())

function typeErrors(file: string): string[] {
  const program = ts.createProgram([join(tmp.dir, 'site-skills.d.ts'), join(tmp.dir, file)], CONSUMER_OPTIONS)
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

describe('d.ts of nullable values, maps and nested required', () => {
  it('tsc accepts the uses and needs every @ts-expect-error', () => {
    expect(typeErrors('use.ts')).toEqual([])
    expect(typeErrors('bare.ts')).toHaveLength((USE.text.match(/@ts-expect-error/g) ?? []).length)
  })

  it('the language service shows T | null and Record<string, T>', () => {
    const editor = createEditor(tmp.dir, ['site-skills.d.ts', 'use.ts'])
    expect(editor.diagnostics('site-skills.d.ts')).toEqual([])
    expect(editor.hover('use.ts', USE.at.price!)?.text).toBe('(property) "price": number | null')
    expect(editor.hover('use.ts', USE.at.stock!)?.text).toBe('const stock: Record<string, number | null>')
    const counts = editor.hover('use.ts', USE.at.counts!)?.text
    expect(counts).toContain('labels?: Record<string, string>;')
    expect(counts).toContain('after: string | null;')
    // The result type of a call without a cursor (the stub's ResultOrPage<C, T> resolved to T, as the checker prints it).
    expect(counts).toContain('[key: string]: string | number | undefined;')
    expect(counts).toContain('total: number;')
    expect(counts).toContain('note?: string;')
  })
})
