/** The words of a `url-pattern` finding about a pattern that cannot be matched in linear time. */

/** Why a pattern is refused (`validate/url-shapes`); `part` is the piece of the pattern it is about. */
export interface SlowShape {
  shape: 'nested-repeat' | 'repeat-separator' | 'ambiguous' | 'wildcards' | 'modifiers'
  part: string
}

const q = (value: unknown) => JSON.stringify(value)

/** Why the pattern is slow, naming its part. */
export function slowReason({ shape, part }: SlowShape): string {
  switch (shape) {
    case 'nested-repeat':
      return `${q(part)} repeats a group, which backtracks exponentially on a path that almost matches`
    case 'repeat-separator':
      return `${q(part)} repeats a part without a "/" between repetitions that the part cannot take`
    case 'ambiguous':
      return `${q(part)} takes any length right after another part of the same segment that does`
    case 'wildcards':
      return `${q(part)} is a second part before the end that can take any length across "/"`
    case 'modifiers':
      return 'it has more than 8 optional or repeated parts'
  }
}

/** What to write instead. */
export function slowHint({ shape }: SlowShape): string {
  switch (shape) {
    case 'nested-repeat':
      return 'Repeat a character class, not a group: "/:slug([a-z0-9-]+)".'
    case 'repeat-separator':
      return 'Repeat whole segments: "/:path+" or "{/:path}*" (one "/" before each).'
    case 'ambiguous':
      return 'Give each part its own segment ("/:name/:ext"), or bound one: ":id(\\\\d{1,10})" or ":name([^/.]+)".'
    case 'wildcards':
      return 'Keep one part that spans segments, or put it last: "/:owner/:repo/*".'
    case 'modifiers':
      return 'Split the pattern into several entries of urls.'
  }
}
