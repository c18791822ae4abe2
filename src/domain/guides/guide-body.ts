// What `markdown_body` and `notice` hold for a plan (spec §4.3, decisions §3): the whole export on plans
// with full guides; otherwise a preview of the first PREVIEW_STEPS steps, or for a locked guide the
// public page's short cut (the first step), each closed by the notice.
import type { Plan } from '../../db/schema.js';
import { exportMarkdown } from '../markdown.js';
import { lockedNotice, planRules, previewNotice } from '../plans.js';
import { type GuideRow, parseSteps } from './guide-record.js';

export interface GuideBody {
  markdown_body: string;
  notice: string | null;
}

export function fullGuideBody(row: GuideRow): GuideBody {
  return { markdown_body: exportMarkdown({ title: row.title, description: row.description, steps: parseSteps(row), notice: null }), notice: null };
}

export function guideBodyForPlan(row: GuideRow, plan: Plan, locked: boolean, previewSteps: number): GuideBody {
  if (planRules(plan).fullGuides && !locked) return fullGuideBody(row);
  const steps = parseSteps(row);
  const shown = locked ? steps.slice(0, 1) : steps.slice(0, previewSteps);
  const notice = locked ? lockedNotice(plan) : previewNotice(plan, shown.length, steps.length);
  return { markdown_body: exportMarkdown({ title: row.title, description: row.description, steps: shown, notice }), notice };
}
