/** What a promise rejects with, or undefined when it resolves: for asserting on an error's fields. */
export const caught = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  )
