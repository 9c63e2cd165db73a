/* The limits of an exported Agent Skills folder (agentskills.io/specification, and our own). */
export const DESCRIPTION_MAX = 1024
export const COMPATIBILITY_MAX = 500
/** SKILL.md stays under this many lines (frontmatter included). */
export const SKILL_MD_LINES = 500
/**
 * Notes of at most this many lines are part of SKILL.md while it stays within INLINE_BUDGET lines; others are files it
 * links.
 */
export const INLINE_NOTE_LINES = 100
export const INLINE_BUDGET = 300

/** A tool's first sentence in the description and note topics, at most. */
export const SENTENCE_MAX = 110
