// The plan rules services and pages ask, judged in one place (platform/policy.ts) for every plan.
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { says } from '../shared/errors'
import { getTableConfig } from 'drizzle-orm/sqlite-core'
import { apiKeys, memberships } from '../db/schema'
import { appRefusal } from '../doors/app/policy'
import { KEY_ROLES, ROLES } from './actor'
import {
  apiOpen,
  apiPlanRefusal,
  backgroundActs,
  backgroundRefusal,
  issuingLimited,
  mailDailyLimit,
  roleAllows,
  webhooksPlanRefusal,
  webhooksSend,
} from './policy'

const PLANS = ['free', 'pro', 'pro_plus', 'paused'] as const

describe('the plan gate, one home', () => {
  test("webhooks send only on a paid plan, a Test business held to it too; a resend is refused webhooks_need_a_paid_plan in the catalog's words", () => {
    for (const plan of PLANS) {
      const paid = plan === 'pro' || plan === 'pro_plus'
      expect(webhooksSend({ plan })).toBe(paid)
      const refusal = webhooksPlanRefusal({ plan })
      if (paid) expect(refusal).toBeNull()
      else {
        expect(refusal?.extra).toEqual({ code: 'webhooks_need_a_paid_plan', remedy: 'choose_plan' })
        expect(refusal?.message).toBe(says('webhooks_need_a_paid_plan'))
      }
    }
  })

  test('the Public API is open on a paid plan and to a Test business on any plan, and its gate agrees', () => {
    for (const plan of PLANS) {
      for (const isTest of [false, true]) {
        const open = isTest || plan === 'pro' || plan === 'pro_plus'
        expect(apiOpen({ plan, isTest })).toBe(open)
        expect(apiPlanRefusal({ plan, isTest }) === null).toBe(open)
      }
    }
  })

  test("the daily recipient limit of the service's mail server: 20 for a Test business or unpaid plan, 100 on Pro, 200 on Pro Plus", () => {
    expect(PLANS.map((plan) => mailDailyLimit({ plan, isTest: false }))).toEqual([20, 100, 200, 20])
    expect(PLANS.map((plan) => mailDailyLimit({ plan, isTest: true }))).toEqual([20, 20, 20, 20])
  })

  test('the issuing limit binds the Free plan and a Test business on any plan', () => {
    expect(PLANS.map((plan) => issuingLimited({ plan, isTest: false }))).toEqual([true, false, false, false])
    expect(PLANS.map((plan) => issuingLimited({ plan, isTest: true }))).toEqual([true, true, true, true])
  })

  test('the background (recurring dates, payment reminders) acts for every plan but Paused, which it answers business_paused', () => {
    expect(PLANS.map((plan) => backgroundActs({ plan }))).toEqual([true, true, true, false])
    for (const plan of PLANS) {
      const refusal = backgroundRefusal({ plan })
      if (plan !== 'paused') expect(refusal).toBeNull()
      else expect(refusal?.extra).toEqual({ code: 'business_paused', remedy: 'choose_plan' })
    }
  })
})

describe('the plan gate lives in the policy alone', () => {
  const SRC = join(import.meta.dir, '..')
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return files(path)
      return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
    })

  test("no source file but platform/policy.ts compares a plan with a plan's name (it asks the policy instead)", () => {
    // Files other changes are moving onto the policy (issue 34: the application's settings pages, the OAuth apps'
    // webhook delivery); each leaves this list when it asks apiOpen / webhooksSend.
    const PENDING = new Set([
      'doors/app/pages/settings/webhooks.tsx',
      'doors/app/pages/settings/keys.tsx',
      'modules/oauth/app-webhooks.ts',
    ])
    const compares = /\bplan\s*[!=]==\s*'(?:free|pro|pro_plus|paused)'/
    const bad = files(SRC)
      .map((f) => relative(SRC, f))
      .filter((f) => f !== 'platform/policy.ts' && !PENDING.has(f) && compares.test(readFileSync(join(SRC, f), 'utf8')))
    expect(bad).toEqual([])
  })
})

describe('one Role type, one Role rule', () => {
  test('the key Roles are the Roles without the Owner, and the tables hold the same lists', () => {
    expect([...ROLES]).toEqual(['owner', 'admin', 'member', 'viewer'])
    expect([...KEY_ROLES]).toEqual(ROLES.filter((r) => r !== 'owner'))
    const enumOf = (table: Parameters<typeof getTableConfig>[0]) =>
      (getTableConfig(table).columns.find((c) => c.name === 'role') as unknown as { enumValues: string[] }).enumValues
    expect(enumOf(memberships)).toEqual([...ROLES])
    expect(enumOf(apiKeys)).toEqual([...KEY_ROLES])
  })

  test("an Owner reaches what an Admin reaches, and the application's Role rule is roleAllows", () => {
    for (const access of ['read', 'write', 'admin'] as const) {
      expect(roleAllows('owner', access)).toBe(roleAllows('admin', access))
      for (const role of ROLES) {
        const need = access === 'read' ? 'read' : access === 'write' ? 'change' : 'manage'
        expect({ role, access, open: appRefusal(role, 'pro', need) === null }).toEqual({
          role,
          access,
          open: roleAllows(role, access),
        })
      }
    }
    expect(['viewer', 'member', 'admin'].map((r) => roleAllows(r as 'viewer', 'write'))).toEqual([false, true, true])
  })
})
