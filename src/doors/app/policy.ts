// The application's plan and Role policy (extensions §9), in one place: plan codes first (as on the MCP server), then
// the Role. Every page and every change asks it before anything is read or written.
import type { MemberRole } from '../../db/schema'
import type { Plan } from '../../modules/business'
import { Permission } from '../../shared/errors'

/**
 * What a page or a change needs:
 * - read: any Role reads (the daily-work pages);
 * - change: documents, Clients, Products, Payments (Owner, Admin, Member);
 * - settings: a settings page, read (Owner and Admin);
 * - manage: a change to settings (Owner and Admin);
 * - billing: the billing page, the one page an Owner still opens on a Paused Business.
 */
export type Need = 'read' | 'change' | 'settings' | 'manage' | 'billing'

const CHANGES: ReadonlySet<Need> = new Set(['change', 'manage'])

export function choosePlanWords(role: MemberRole): string {
  return role === 'owner' ? 'choose a plan on the billing page' : 'ask an Owner to choose a plan on the billing page'
}

/** null when the person may go on; else the 403 that the page shows in plain words. */
export function appRefusal(role: MemberRole, plan: Plan, need: Need): Permission | null {
  if (plan === 'paused' && !(need === 'billing' && role === 'owner')) {
    return new Permission(`This Business is paused: only its Owner opens its billing page; to use it again, ${choosePlanWords(role)}.`, {
      code: 'business_paused',
      remedy: 'choose_plan',
    })
  }
  if (plan === 'free' && role !== 'owner' && CHANGES.has(need)) {
    return new Permission(`On the Free plan only the Owner makes changes; everyone else reads. To change this, ${choosePlanWords(role)}.`, {
      code: 'plan_role_viewing',
      remedy: 'choose_plan',
    })
  }
  if ((need === 'settings' || need === 'manage' || need === 'billing') && role !== 'owner' && role !== 'admin') {
    return new Permission('Only an Owner or an Admin opens and changes the settings of this Business.')
  }
  if (need === 'change' && role === 'viewer') return new Permission('A Viewer only reads.')
  return null
}
