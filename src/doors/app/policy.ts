// The application's Role policy (extensions §9): the plan first, through the platform's one plan rule for this door,
// then the Role. Every page and every change asks it before anything is read or written.
import type { Role } from '../../platform/actor'
import type { Plan } from '../../modules/business'
import { Permission } from '../../shared/errors'
import { appPlanRefusal, roleAllows, type Access } from '../../platform/policy'

/**
 * What a page or a change needs:
 * - read: any Role reads (the daily-work pages);
 * - change: documents, Clients, Products, Payments (Owner, Admin, Member);
 * - settings: a settings page, read (Owner and Admin);
 * - manage: a change to settings (Owner and Admin);
 * - billing: the billing page, the one page an Owner still opens on a Paused Business.
 */
export type Need = 'read' | 'change' | 'settings' | 'manage' | 'billing'

/** What each need asks of the plan rule: settings pages are read; a change to settings manages them. */
const ACCESS: Record<Need, Access | 'billing'> = {
  read: 'read',
  change: 'write',
  settings: 'read',
  manage: 'admin',
  billing: 'billing',
}

/** null when the person may go on; else the 403 that the page shows in plain words. */
export function appRefusal(role: Role, plan: Plan, need: Need): Permission | null {
  // The plan first, through the one plan rule of the application door (platform/policy.ts).
  const planRefusal = appPlanRefusal({ plan, owner: role === 'owner' }, ACCESS[need])
  if (planRefusal) return planRefusal
  return appRoleRefusal(role, ROLE_ACCESS[need])
}

/** What each need asks of the Role: a settings page, read or changed, is an Admin's (an Owner acts as one). */
const ROLE_ACCESS: Record<Need, Access> = {
  read: 'read',
  change: 'write',
  settings: 'admin',
  manage: 'admin',
  billing: 'admin',
}

/** The Role's refusal in the application's words, judged by the platform's one Role rule (roleAllows). */
export function appRoleRefusal(role: Role, access: Access): Permission | null {
  if (roleAllows(role, access)) return null
  return new Permission(
    access === 'admin'
      ? 'Only an Owner or an Admin opens and changes the settings of this Business.'
      : 'A Viewer only reads.',
  )
}
