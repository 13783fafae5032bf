/**
 * What the tests of the workflows users copy (.github/workflows/) share: their shapes as parsed YAML,
 * actionlint where it is installed, and what this repository's action (action.yml) does for a job that
 * uses it (`uses: ./`), read from its steps and the scripts they start.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './conformance-run.ts';

export const ACTION = join(REPO_ROOT, 'action.yml');
export const ACTIONLINT = [
  join(REPO_ROOT, '.tools', 'bin', 'actionlint'),
  '/usr/local/bin/actionlint',
  '/usr/bin/actionlint',
].find((p) => existsSync(p));
export const ACTIONLINT_INSTALL =
  'GOBIN="$PWD/.tools/bin" go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12';

export type Step = {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  if?: string;
  'continue-on-error'?: boolean | string;
};
export type Job = {
  steps?: Step[];
  strategy?: { matrix?: Record<string, unknown[]> };
  needs?: string[] | string;
  'runs-on'?: string;
  'timeout-minutes'?: number;
};
export type Workflow = {
  on?: Record<string, unknown>;
  jobs?: Record<string, Job>;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
};
export type Action = { inputs?: Record<string, unknown>; runs?: { using?: string; steps?: Step[] } };

export const always = (s: Step) => /\balways\(\)/.test(s.if ?? '');
export const isLocalAction = (s: Step) => s.uses === './';
/**
 * What the repository's action does for a job that uses it, read from action.yml: its run steps with
 * the scripts they start (under the action's path), its cache and upload steps.
 */
export function actionPromises(action: Action) {
  const steps = action.runs?.steps ?? [];
  const script = (s: Step) => {
    const files = [...(s.run ?? '').matchAll(/\$GITHUB_ACTION_PATH\/([\w./-]+)/g)].map((m) => join(REPO_ROOT, m[1]));
    return [s.run ?? '', ...files.filter(existsSync).map((f) => readFileSync(f, 'utf8'))].join('\n');
  };
  const runsHarness = steps.findIndex((s) => /wfcheck\.mjs" "\$\{argv\[@\]\}"/.test(script(s)));
  const history = (s: Step) => String(s.with?.path ?? '').includes('history.sqlite');
  const restore = steps.findIndex((s) => /^actions\/cache(\/restore)?@/.test(s.uses ?? '') && history(s));
  const save = steps.findIndex((s) => /^actions\/cache\/save@/.test(s.uses ?? '') && history(s) && always(s));
  return {
    problems: [
      ...(action.runs?.using === 'composite' ? [] : ['action.yml is not a composite action']),
      ...(runsHarness >= 0 ? [] : ['the action does not run wfcheck']),
    ],
    inputs: new Set(Object.keys(action.inputs ?? {})),
    keepsHistory: runsHarness >= 0 && restore >= 0 && restore < runsHarness && save > runsHarness,
    uploadsReports: steps.some((s) => /^actions\/upload-artifact@/.test(s.uses ?? '') && always(s)),
    writesSummary: steps.some(
      (s) => always(s) && /GITHUB_STEP_SUMMARY/.test(script(s)) && /report\.md/.test(script(s)),
    ),
    writesSeedLine: steps.some(
      (s) =>
        always(s) &&
        /GITHUB_STEP_SUMMARY/.test(script(s)) &&
        /explore seed .*replay with wfcheck explore --seed/.test(script(s)),
    ),
  };
}
