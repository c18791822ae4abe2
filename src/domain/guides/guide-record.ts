// The stored guide and the pieces of it that several modules read.
import type { GuidesTable } from '../../db/schema.js';
import type { ExportStep } from '../markdown.js';

export type GuideRow = Omit<GuidesTable, 'seq'> & { seq: number };

export type GuideStep = ExportStep;

export function parseSteps(row: Pick<GuideRow, 'steps'>): GuideStep[] {
  return JSON.parse(row.steps) as GuideStep[];
}

export function parseTags(row: Pick<GuideRow, 'tags'>): string[] | null {
  return row.tags === null ? null : (JSON.parse(row.tags) as string[]);
}

const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'sd', 'yi', 'dv', 'ug']);

/** `rtl` for languages written right to left, by the primary subtag of the BCP 47 tag. */
export function textDirectionOf(language: string): 'ltr' | 'rtl' {
  const primary = language.split('-')[0]!.toLowerCase();
  return RTL_LANGUAGES.has(primary) ? 'rtl' : 'ltr';
}
