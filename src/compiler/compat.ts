/** Compatibility modes: `'ego-lite'` adds the restrictions of the original ego-lite runtime. */
export const COMPAT_MODES = ['ego-lite'] as const
export type Compat = (typeof COMPAT_MODES)[number]

/** The compat mode a user's value names, or undefined when it names none. */
export function parseCompat(value: unknown): Compat | undefined {
  return COMPAT_MODES.find((mode) => mode === value)
}

/** Whether checks add what the original ego-lite runtime cannot load. */
export function wantsEgoLite(options: { compat?: Compat }): boolean {
  return options.compat === 'ego-lite'
}
