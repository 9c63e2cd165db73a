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

/** Checks of one value; `v` is a variable holding it, `path` a JS expression of its display path. */
function checkValue(schema: ValueSchema, v: string, path: string, depth: number): string {
  const [test, phrase] = EXPECTED[schema.type]
  let code = `if(!(${test(v)}))return[${path},${q(phrase)},${v}];`
  if (schema.enum) {
    const list = schema.enum.map((e) => q(e)).join(',')
    const expected = q(`one of ${schema.enum.map((e) => q(e)).join(', ')}`)
    code += `if(![${list}].includes(${v}))return[${path},${expected},${v}];`
  }
  if (schema.type === 'array' && schema.items) {
    const i = `i${depth}`
    const item = `e${depth}`
    const check = checkValue(schema.items, item, `${path}+"["+${i}+"]"`, depth + 1)
    code += `for(let ${i}=0;${i}<${v}.length;${i}++){const ${item}=${v}[${i}];${check}}`
  }
  if (schema.type === 'object' && schema.properties) code += checkFields(schema.properties, v, path, depth + 1, false)
  return code
}

/** Checks of the declared fields of an object held in `v`. */
function checkFields(
  fields: Record<string, ValueSchema>,
  v: string,
  path: string,
  depth: number,
  closed: boolean,
): string {
  let code = ''
  for (const [name, schema] of Object.entries(fields)) {
    const f = `f${depth}`
    const sub = path === '""' ? q(name) : `${path}+${q(`.${name}`)}`
    const missing = schema.required ? `return[${sub},"present"]` : ''
    const read = `const ${f}=Object.hasOwn(${v},${q(name)})?${v}[${q(name)}]:undefined;`
    code += `{${read}if(${f}===undefined||${f}===null){${missing}}else{${checkValue(schema, f, sub, depth)}}}`
  }
  if (closed) {
    const known = Object.keys(fields)
      .map((k) => q(k))
      .join(',')
    code += `for(const k in ${v})if(Object.hasOwn(${v},k)&&![${known}].includes(k))return[k,"absent"];`
  }
  return code
}

/**
 * Generates the argument check of one tool as a function expression (see ArgsValidator):
 * required arguments, types, enum values, array items and object properties; undeclared
 * top-level arguments are rejected. Every name and literal goes through JSON.stringify.
 */
export function generateArgsValidator(args: Record<string, ValueSchema>): string {
  return `function(a){${checkFields(args, 'a', '""', 0, true)}}`
}

/**
 * Generates the check of a tool's result against its `returns` schema, in the same form as
 * ArgsValidator: undefined when it fits, else `[path, expected, actual]` with paths such as
 * `result.products[0].price`. The result itself must be present unless `returns.required` is
 * false; below it, as for arguments, a field that is absent or null fails only when `required`.
 */
export function generateReturnsValidator(returns: ValueSchema): string {
  const missing = returns.required === false ? 'return' : `return["result","present",v]`
  return `function(v){if(v===undefined||v===null){${missing}}${checkValue(returns, 'v', '"result"', 0)}}`
}
