import type { Tool } from '@modelcontextprotocol/server'
import { TAB_PROPERTY } from '../listing'

/** The authoring tools (SPEC 11): listed and callable only under `--allow-write DIR`. */
export const AUTHOR = {
  snapshot: 'site_skills_snapshot',
  writeTool: 'site_skills_write_tool',
  test: 'site_skills_test',
  writeNote: 'site_skills_write_note',
} as const

export const AUTHOR_NAMES: ReadonlySet<string> = new Set(Object.values(AUTHOR))

const site = { type: 'string', description: 'The skill id (its folder name).' }
const tabArg = TAB_PROPERTY
const valueSchema = {
  type: 'object',
  description: 'A manifest value schema: { type, description, required?, items?, properties?, enum? }.',
}

const SNAPSHOT: Tool = {
  name: AUTHOR.snapshot,
  title: 'Save the page as a fixture',
  description:
    "Saves your tab's page (no scripts, no password values, with a provenance header) as fixtures/NAME.html of " +
    "a skill, the page its tools' examples run on. Creates the skill (id and domain from the tab's host) when " +
    'there is none. Returns the fixture and an example stanza for site_skills_write_tool.',
  inputSchema: {
    type: 'object',
    properties: {
      site: {
        type: 'string',
        description: "The skill id. Default: the skill of the tab's host, else one made from it.",
      },
      name: { type: 'string', description: 'The fixture name. Default: from the URL.' },
      tab: tabArg,
    },
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
}

const WRITE_TOOL: Tool = {
  name: AUTHOR.writeTool,
  title: 'Write a site tool',
  description:
    'Writes a tool of a skill (its file and manifest entry), validates the skill, runs the example on its ' +
    'fixture and on your tab; keeps it and serves it at once, or changes nothing and returns every problem ' +
    'at file:line:col with a hint. Browser code: `async function (args) {...}` run in the page. Node code: an ' +
    'ES module exporting `callable` (default: the tool name) as `(ctx, args) => value`.',
  inputSchema: {
    type: 'object',
    properties: {
      site,
      tool: { type: 'string', description: 'The tool name: letters, digits and _.' },
      kind: { type: 'string', enum: ['browser', 'node'] },
      code: { type: 'string', description: "The tool file's source." },
      description: { type: 'string', description: 'What the tool does, for the model.' },
      args: { type: 'object', description: 'Argument name -> value schema.' },
      returns: valueSchema,
      example: {
        type: 'object',
        description:
          '{ name?, args, fixture?, url?, expect? }: fixture defaults to the newest fixtures/*.html, url to ' +
          "the fixture's; expect is a partial value the result must contain.",
      },
      callable: { type: 'string', description: "A Node tool's export. Default: the tool name." },
      tab: tabArg,
    },
    required: ['site', 'tool', 'kind', 'code', 'description', 'args', 'returns', 'example'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
}

const TEST: Tool = {
  name: AUTHOR.test,
  title: "Test a skill's examples",
  description:
    "Runs a skill's examples on their fixtures; `live` also on their live pages, with the drift kinds of " +
    '`site-skills test --live`. A drifted example names the fields that changed and the snapshot to take.',
  inputSchema: {
    type: 'object',
    properties: {
      site,
      tool: { type: 'string', description: "Only this tool's examples." },
      live: { type: 'boolean', description: 'Also run them on the live pages.' },
    },
    required: ['site'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
}

const WRITE_NOTE: Tool = {
  name: AUTHOR.writeNote,
  title: 'Write a note',
  description:
    'Writes (or with `append`, adds to) notes/FILE of a skill and lists it in the manifest; validated like a ' +
    'tool, kept or left as it was.',
  inputSchema: {
    type: 'object',
    properties: {
      site,
      file: { type: 'string', description: 'The note file below notes/, ending in .md.' },
      text: { type: 'string', description: 'Markdown.' },
      append: { type: 'boolean', description: 'Add to the end of the note instead of replacing it.' },
    },
    required: ['site', 'file', 'text'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
}

export const AUTHOR_TOOLS: readonly Tool[] = [SNAPSHOT, WRITE_TOOL, TEST, WRITE_NOTE]
