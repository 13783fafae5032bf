/**
 * The role rules: a title suggests, a run decides. Titles only order the trial and keep a workflow
 * nobody ran out of the roles that need a plain run; the three roles of behaviour are filled by what a
 * run showed, whatever the title says.
 */
import { expect, test } from '@playwright/test';
import { trialOrder, type Candidate } from './discovery.ts';
import { mayBe, roleUnfilled, rolesOf, suggestedBehaviours, titleSuggests, type Described } from './roles.ts';

type Plan = NonNullable<Described['plan']>;

const plan = (tasks: number, variables: Plan['variables'] = []): Plan => ({
  title: 'plan',
  tasks: Array.from({ length: tasks }, (_, i) => ({ id: `t${i}`, title: `Task ${i}`, prompt: 'p', toolsets: [] })),
  variables,
});

test('title words and their neighbours suggest a behaviour; silent titles suggest nothing', () => {
  // The titles of the servers whose roles no title announced: the neighbours now speak for some.
  expect(suggestedBehaviours('Internal Billing Reconciliation')).toEqual(['disabled']);
  expect(suggestedBehaviours('Legacy Invoice Sync')).toEqual(['disabled']);
  expect(suggestedBehaviours('Quarterly Data Warehouse Backfill')).toEqual(['long-running']);
  for (const silent of ['Customer Onboarding Emails', 'Competitor Analysis Pipeline', 'Invoice Reconciliation'])
    expect(suggestedBehaviours(silent), silent).toEqual([]);
  // The word itself is strong, a neighbour weak; a title may suggest two, the strongest first.
  expect(titleSuggests('Internal payroll export (API disabled)', 'disabled')).toBe(2);
  expect(titleSuggests('Archived report 12', 'disabled')).toBe(1);
  expect(suggestedBehaviours('Nightly data import (fails)')).toEqual(['failing', 'long-running']);
  expect(titleSuggests('Website crawler', 'long-running')).toBe(1);
  // A word inside another does not count: "along" is not "long", "Privately" not "private".
  expect(titleSuggests('Follow along the sales team', 'long-running')).toBe(0);
  expect(titleSuggests('Privately held', 'disabled')).toBe(0);
});

test('the roles of behaviour are filled by what a run showed, never by the title alone', () => {
  const announced: Described = { title: 'Payroll export (API disabled)', plan: plan(1) };
  expect(rolesOf(announced)).not.toContain('API disabled');
  // Its title kept it out of the plain roles too: nobody ran it.
  expect(rolesOf(announced)).toEqual([]);
  expect(rolesOf({ ...announced, behaviour: 'disabled' })).toEqual(['API disabled']);

  // A candidate whose title says nothing: its run decides.
  const silent: Described = { title: 'Customer Onboarding Emails', plan: plan(3) };
  expect(rolesOf(silent)).toEqual(['no required variable', 'multi-node']);
  expect(rolesOf({ ...silent, behaviour: 'disabled' })).toEqual(['API disabled']);
  expect(rolesOf({ ...silent, behaviour: 'failing' })).toEqual(['failing task']);
  expect(rolesOf({ ...silent, behaviour: 'long-running' })).toEqual(['slow (to abort)']);
  expect(rolesOf({ ...silent, behaviour: 'finishes' })).toEqual(['no required variable', 'multi-node']);
});

test('a run clears what a title suggested; without one the suggestion keeps a workflow out of plain roles', () => {
  const archived: Described = { title: 'Archived report 7', plan: plan(2, [{ name: 'q', variableType: 'string' }]) };
  expect(mayBe(archived, 'disabled')).toBe(true);
  expect(rolesOf(archived)).toEqual([]);
  const ran = { ...archived, behaviour: 'finishes' as const };
  expect(mayBe(ran, 'disabled')).toBe(false);
  expect(rolesOf(ran)).toEqual(['no required variable', 'string variable', 'multi-node']);
  // A failing workflow still has an accepted run: it may be the file-variable one, never a plain run's.
  const failing: Described = {
    title: 'Invoice Reconciliation',
    plan: plan(2, [{ name: 'f', variableType: 'resource', required: true }]),
    behaviour: 'failing',
  };
  expect(rolesOf(failing)).toEqual(['file variable', 'required variable', 'failing task']);
  // A long-running one is no plain run either, and no plan role that waits for a refusal or an end.
  const long: Described = { ...failing, title: 'Quarterly Data Warehouse Backfill', behaviour: 'long-running' };
  expect(rolesOf(long)).toEqual(['file variable', 'slow (to abort)']);
});

test('what is tried first: names of a missing behaviour, then hints, the longest plans first while the slow one is missing, the rest seeded', () => {
  const ws: Candidate[] = [
    { canvasId: 'silent-short', title: 'Daily Industry News Digest', tasks: 1 },
    { canvasId: 'silent-long', title: 'Website SEO Audit', tasks: 5 },
    { canvasId: 'hint', title: 'Nightly CRM Lead Sync', tasks: 4 },
    { canvasId: 'named', title: 'Payroll export (API disabled)', tasks: 1 },
    { canvasId: 'unread', title: 'Vendor onboarding' },
  ];
  const ids = (list: Candidate[]) => list.map((w) => w.canvasId);
  expect(ids(trialOrder(ws, ['disabled', 'failing', 'long-running'], 1))).toEqual([
    'named',
    'hint',
    'silent-long',
    'silent-short',
    'unread',
  ]);
  // Without the slow one to find, plan length says nothing: a seeded order, the same for the same seed.
  const rest = ws.filter((w) => !['named', 'hint'].includes(w.canvasId));
  const orders = [1, 2, 3, 4, 5, 6].map((seed) => ids(trialOrder(rest, ['disabled'], seed)).join());
  expect(new Set(orders).size).toBeGreaterThan(1);
  expect(ids(trialOrder(rest, ['disabled'], 3))).toEqual(ids(trialOrder(rest, ['disabled'], 3)));
});

test('an unfilled role names what was tried and the setting that supplies one', () => {
  expect(roleUnfilled('API disabled', 'tried 2: c_1 "A" ended finish after 0.2 s')).toBe(
    'no discovered workflow fills the role "API disabled" (a workflow whose workflow API is disabled (run answers 403)); tried 2: c_1 "A" ended finish after 0.2 s: set WFCHECK_DISABLED_CANVAS_ID to one',
  );
  expect(roleUnfilled('failing task')).toMatch(/: add one to WFCHECK_CANVAS_IDS$/);
});
