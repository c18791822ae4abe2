// Plan rules (decisions §3): which plans get full guides through the API and how many guides per team
// are unlocked.
import type { Plan } from '../db/schema.js';

export const PLANS: readonly Plan[] = ['free', 'starter', 'growth', 'enterprise'];

interface PlanRules {
  fullGuides: boolean;
  /** Unlocked guides per team; null means no limit. */
  guideLimit: number | null;
  label: string;
}

const RULES: Record<Plan, PlanRules> = {
  free: { fullGuides: false, guideLimit: 25, label: 'Free' },
  starter: { fullGuides: false, guideLimit: 250, label: 'Starter' },
  growth: { fullGuides: true, guideLimit: null, label: 'Growth' },
  enterprise: { fullGuides: true, guideLimit: null, label: 'Enterprise' },
};

export function planRules(plan: Plan): PlanRules {
  return RULES[plan];
}

export function previewNotice(plan: Plan, shownSteps: number, totalSteps: number): string {
  const shown = Math.min(shownSteps, totalSteps);
  return (
    `This is a preview: it shows ${shown} of the guide's ${totalSteps} steps. ` +
    `Full guides through the API are part of the Growth plan and above; this team is on the ${RULES[plan].label} plan.`
  );
}

export function lockedNotice(plan: Plan): string {
  const limit = RULES[plan].guideLimit;
  return (
    `This guide is past the ${RULES[plan].label} plan's limit of ${limit} guides per team, so only its first step is shown. ` +
    'Upgrade the plan to read it in full.'
  );
}
