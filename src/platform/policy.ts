// The plan and Role policy, one function per door (API, MCP, application, webhooks) and the plan limits services ask:
// every plan rule of the contract is written here once.
import { Permission, Refusal, refusalInfo } from '../shared/errors'
import type { Actor, Plan, Role } from './actor'

/** What an operation needs: reading, changing records, or managing settings (webhooks, request log). */
export type Access = 'read' | 'write' | 'admin'

export function isPaidPlan(plan: Plan | string): boolean {
  return plan === 'pro' || plan === 'pro_plus'
}

/** Whether the Role reaches the access (an Owner acts with an Admin's Role): the one Role rule of every door. */
export function roleAllows(role: Role, access: Access): boolean {
  if (access === 'admin') return role === 'admin' || role === 'owner'
  if (access === 'write') return role !== 'viewer'
  return true
}

/** The Role's own refusal: asked after the plan, before the record the request names. */
export function roleRefusal(a: Pick<Actor, 'role'>, access: Access): Permission | null {
  if (roleAllows(a.role, access)) return null
  return new Permission(access === 'admin' ? 'Only an Admin key may do this.' : 'A Viewer key only reads.')
}

/**
 * The Public API's plan gate, before any other answer: a Free or Paused Business answers every request of its API
 * keys and Connected apps `paid_plan_required`, reads included; a Test business keeps the API on every plan.
 */
export function apiPlanRefusal(a: Pick<Actor, 'plan' | 'isTest'>): Permission | null {
  if (apiOpen(a)) return null
  return new Permission('The Public API needs a paid plan; the Owner chooses one in billing settings.', {
    code: 'paid_plan_required',
    remedy: 'choose_plan',
  })
}

/**
 * The MCP server's plan rule (extensions §11), judged before the Role: a Paused Business answers `business_paused`;
 * on the Free plan only reads are open (`plan_role_viewing`), except for a Connected app its Owner connected; a Test
 * business keeps the MCP server on every plan.
 */
export function mcpPlanRefusal(
  a: Pick<Actor, 'plan' | 'isTest' | 'owner' | 'kind'>,
  access: Access,
): Permission | null {
  if (a.isTest || isPaidPlan(a.plan)) return null
  if (a.plan === 'paused')
    return new Permission('The Business is paused; the Owner chooses a plan in billing settings.', {
      code: 'business_paused',
      remedy: 'choose_plan',
    })
  if (access === 'read' || (a.kind === 'connected_app' && a.owner)) return null
  return new Permission(
    'On the Free plan only reads are open here; the Owner chooses a paid plan in billing settings.',
    { code: 'plan_role_viewing', remedy: 'choose_plan' },
  )
}

/** The application's remedy in plain words: an Owner chooses the plan; anyone else asks an Owner to. */
function choosePlanWords(a: Pick<Actor, 'owner'>): string {
  return a.owner ? 'choose a plan on the billing page' : 'ask an Owner to choose a plan on the billing page'
}

/**
 * The application's plan rule (extensions §9): a Paused Business is read by nobody but its Owner (on the billing
 * page); on the Free plan a non-Owner only reads. The words are the page's, said to the person who acts.
 */
export function appPlanRefusal(a: Pick<Actor, 'plan' | 'owner'>, access: Access | 'billing'): Permission | null {
  if (isPaidPlan(a.plan)) return null
  if (a.plan === 'paused') {
    if (access === 'billing' && a.owner) return null
    return new Permission(
      `This Business is paused: only its Owner opens its billing page; to use it again, ${choosePlanWords(a)}.`,
      {
        code: 'business_paused',
        remedy: 'choose_plan',
      },
    )
  }
  if (access === 'read' || access === 'billing' || a.owner) return null
  return new Permission(
    `On the Free plan only the Owner makes changes; everyone else reads. To change this, ${choosePlanWords(a)}.`,
    {
      code: 'plan_role_viewing',
      remedy: 'choose_plan',
    },
  )
}

/** Whether the Public API answers a Business's keys and Connected apps at all (what the keys page warns of). */
export function apiOpen(b: { plan: Plan | string; isTest: boolean }): boolean {
  return isPaidPlan(b.plan) || b.isTest
}

/** Webhooks (the Business's and Connected apps') send nothing about a Business off a paid plan, a Test one included. */
export function webhooksSend(b: { plan: Plan | string }): boolean {
  return isPaidPlan(b.plan)
}

/** A resend of a webhook message (a Business's webhook or an OAuth app's) while webhooks send nothing about it. */
export function webhooksPlanRefusal(b: { plan: Plan | string }): Refusal | null {
  if (webhooksSend(b)) return null
  return Refusal.of({ ...refusalInfo('webhooks_need_a_paid_plan'), remedy: 'choose_plan' })
}

/** The yearly issuing limit binds a Test business and the Free plan. */
export function issuingLimited(b: { plan: Plan | string; isTest: boolean }): boolean {
  return b.isTest || b.plan === 'free'
}

/**
 * The daily recipient limit of the service's own mail server: the lower one binds a Test business and every unpaid
 * plan; Pro Plus sends twice what Pro does.
 */
export function mailDailyLimit(b: { plan: Plan | string; isTest: boolean }): number {
  if (b.isTest || !isPaidPlan(b.plan)) return 20
  return b.plan === 'pro_plus' ? 200 : 100
}

/**
 * Whether a Business's background work acts (extensions §13 and §14: a recurring schedule's dates, its payment
 * reminders): not while it is Paused, when nobody acts for it (§9). `BACKGROUND_PAUSED_PLANS` is the same rule for a
 * query that filters in SQL.
 */
export const BACKGROUND_PAUSED_PLANS = ['paused'] as const
export function backgroundActs(b: { plan: Plan | string }): boolean {
  return !(BACKGROUND_PAUSED_PLANS as readonly string[]).includes(b.plan)
}

/**
 * Why the background did not act for a Business (a recurring date not made, kept in its `last_run.error`): the
 * `business_paused` code the MCP server and the application answer, in the words of a task no person started.
 */
export function backgroundRefusal(b: { plan: Plan | string }): Permission | null {
  if (backgroundActs(b)) return null
  return new Permission(
    'The Business is paused: nothing is made or sent for it until the Owner chooses a plan in billing settings.',
    { code: 'business_paused', remedy: 'choose_plan' },
  )
}
