/**
 * Every judge of the core, with the clauses it declares: the contract's (what the automatic checks of
 * contracts/response-checks.ts cover, their `covers()` over every operation, and the key never echoed)
 * and each judge of a suite's clauses. The catalogue test (judges.test.ts) holds every must and should
 * clause to exactly one judge here; a judge not listed here is a judge no test holds to that.
 */
import { certificate } from './certificate.ts';
import { contract, openPoints } from './contract.ts';
import { upload, unusedUploads } from './files.ts';
import { generation } from './generate.ts';
import type { Declaration } from './judge.ts';
import { latency } from './latency.ts';
import { outputFiles, runs } from './lifecycle.ts';
import { notFound, oddIds, refusedRuns, withinLimits } from './limits.ts';
import { nodesMatchPlan, planSemantics } from './plans.ts';
import { invalidParameter, overLimit, withoutKey } from './refusals.ts';
import { executionHistory } from './relations.ts';
import { detailOfListed, searchKeyword, searchOpenPoints, searchPaging } from './search.ts';
import { isolation, schemeSpelling } from './security.ts';
import { abort } from './state.ts';
import { outputVisibility } from './visibility.ts';

export const JUDGES: readonly Declaration[] = [
  contract,
  openPoints,
  withoutKey,
  schemeSpelling,
  isolation,
  overLimit,
  invalidParameter,
  notFound,
  refusedRuns,
  withinLimits,
  oddIds,
  latency,
  runs,
  outputFiles,
  executionHistory,
  nodesMatchPlan,
  outputVisibility,
  abort,
  searchPaging,
  searchKeyword,
  searchOpenPoints,
  detailOfListed,
  planSemantics,
  upload,
  unusedUploads,
  generation,
  certificate,
];
