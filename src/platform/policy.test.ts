// The plan rules services and pages ask, judged in one place (platform/policy.ts) for every plan.
import { describe, expect, test } from 'bun:test'
import { says } from '../shared/errors'
import { apiOpen, apiPlanRefusal, mailDailyLimit, webhooksPlanRefusal, webhooksSend } from './policy'

const PLANS = ['free', 'pro', 'pro_plus', 'paused'] as const

describe('the plan gate, one home', () => {
  test('webhooks send only on a paid plan, a Test business held to it too; a resend is refused webhooks_need_a_paid_plan in the catalog\'s words', () => {
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

  test('the daily recipient limit of the service\'s mail server: 20 for a Test business or unpaid plan, 100 on Pro, 200 on Pro Plus', () => {
    expect(PLANS.map((plan) => mailDailyLimit({ plan, isTest: false }))).toEqual([20, 100, 200, 20])
    expect(PLANS.map((plan) => mailDailyLimit({ plan, isTest: true }))).toEqual([20, 20, 20, 20])
  })
})
