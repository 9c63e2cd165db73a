import type { ValueSchema } from '../../runtime/index'

const EXPECTED: Record<ValueSchema['type'], [test: (v: string) => string, phrase: string]> = {
  string: [(v) => `typeof ${v}==="string"`, 'a string'],
  number: [(v) => `typeof ${v}==="number"&&isFinite(${v})`, 'a number'],
  integer: [(v) => `Number.isInteger(${v})`, 'an integer'],
  boolean: [(v) => `typeof ${v}==="boolean"`, 'a boolean'],
  array: [(v) => `Array.isArray(${v})`, 'an array'],
  object: [(v) => `${v}!==null&&typeof ${v}==="object"&&!Array.isArray(${v})`, 'an object'],
}

const q = (value: unknown) => JSON.stringify(value)

/** A JS expression of the display path of member `k` below `path`: `.name`, or `["odd key"]`. */
const keyPath = (path: string, k: string) =>
  `${path}+(/^[A-Za-z_$][\\w$]*$/.test(${k})?"."+${k}:"["+JSON.stringify(${k})+"]")`

/**
 * Checks of one value; `v` is a variable holding it, `path` a JS expression of its display path.
 * Null passes only when the schema is `nullable` (`nullDone`: the caller has dealt with null already).
 */
function checkValue(schema: ValueSchema, v: string, path: string, depth: number, nullDone = false): string {
  const [test, phrase] = EXPECTED[schema.type]
  const expected = q(schema.nullable ? `${phrase} or null` : phrase)
  let code = `if(!(${test(v)}))return[${path},${expected},${v}];`
  if (schema.enum) {
    const list = schema.enum.map((e) => q(e)).join(',')
    const oneOf = q(`one of ${schema.enum.map((e) => q(e)).join(', ')}`)
    code += `if(![${list}].includes(${v}))return[${path},${oneOf},${v}];`
  }
  if (schema.type === 'array' && schema.items) {
    const i = `i${depth}`
    const item = `e${depth}`
    const check = checkValue(schema.items, item, `${path}+"["+${i}+"]"`, depth + 1)
    code += `for(let ${i}=0;${i}<${v}.length;${i}++){const ${item}=${v}[${i}];${check}}`
  }
  if (schema.type === 'object') code += checkObject(schema, v, path, depth + 1)
  return schema.nullable && !nullDone ? `if(${v}!==null){${code}}` : code
}

/** Declared properties, then the other keys: refused (`additionalProperties: false`) or checked as map values. */
function checkObject(schema: ValueSchema, v: string, path: string, depth: number): string {
  const fields = schema.properties ?? {}
  let code = checkFields(fields, v, path, depth)
  const extra = schema.additionalProperties
  if (extra === undefined || extra === true) return code
  const k = `k${depth}`
  const known = `[${Object.keys(fields)
    .map((name) => q(name))
    .join(',')}]`
  let check: string
  if (extra === false) check = `return[${keyPath(path, k)},"absent",${v}[${k}]];`
  else {
    const m = `m${depth}`
    check = `const ${m}=${v}[${k}];if(${m}!==undefined){${checkValue(extra, m, keyPath(path, k), depth + 1)}}`
  }
  code += `for(const ${k} in ${v})if(Object.hasOwn(${v},${k})&&!${known}.includes(${k})){${check}}`
  return code
}

/**
 * Checks of the declared fields of an object held in `v`. A field without `required: true` may be
 * absent, undefined or null (no value); with it, it must be present and not null, unless it is also
 * `nullable` (then null is a value, but absent is still missing).
 */
function checkFields(fields: Record<string, ValueSchema>, v: string, path: string, depth: number): string {
  let code = ''
  for (const [name, schema] of Object.entries(fields)) {
    const f = `f${depth}`
    const sub = path === '""' ? q(name) : `${path}+${q(`.${name}`)}`
    const missing = `return[${sub},"present",${f}]`
    const onEmpty = !schema.required ? '' : schema.nullable ? `if(${f}===undefined)${missing}` : missing
    const read = `const ${f}=Object.hasOwn(${v},${q(name)})?${v}[${q(name)}]:undefined;`
    const check = checkValue(schema, f, sub, depth, true)
    code += `{${read}if(${f}===undefined||${f}===null){${onEmpty}}else{${check}}}`
  }
  return code
}

/**
 * Generates the argument check of one tool as a function expression (see ArgsValidator):
 * required arguments, types, nullable, enum values, array items, object properties and maps; undeclared
 * top-level arguments are rejected. Every name and literal goes through JSON.stringify.
 */
export function generateArgsValidator(args: Record<string, ValueSchema>): string {
  const known = Object.keys(args)
    .map((k) => q(k))
    .join(',')
  const closed = `for(const k in a)if(Object.hasOwn(a,k)&&![${known}].includes(k))return[k,"absent"];`
  return `function(a){${checkFields(args, 'a', '""', 0)}${closed}}`
}

/**
 * Generates the check of a tool's result against its `returns` schema, in the same form as
 * ArgsValidator: undefined when it fits, else `[path, expected, actual]` with paths such as
 * `result.products[0].price`. The result must be a value unless `returns.required` is false, and
 * not null unless `returns.nullable`; below it, fields follow the same rules as arguments.
 */
export function generateReturnsValidator(returns: ValueSchema): string {
  const empty =
    returns.required === false
      ? 'return'
      : `${returns.nullable ? 'if(v===null)return;' : ''}return["result","present",v]`
  const check = checkValue(returns, 'v', '"result"', 0, true)
  return `function(v){if(v===undefined||v===null){${empty}}${check}}`
}
