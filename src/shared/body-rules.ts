// Rules of a request body its schema cannot state (one of two fields required), kept by the schema's title: a model
// declares them beside its schema, and each door's validation answer asks them (src/doors/api/errors.ts).
import type { FieldErrors } from './errors'

export type BodyRule = (body: Record<string, unknown>) => FieldErrors

const bodyRules = new Map<string, BodyRule>()

/** Declares the rule of the body schema titled `title`. */
export function bodyRule(title: string, rule: BodyRule): void {
  bodyRules.set(title, rule)
}

/** The rule declared for a body schema's title, if any. */
export function bodyRuleOf(title: string | undefined): BodyRule | undefined {
  return title === undefined ? undefined : bodyRules.get(title)
}
