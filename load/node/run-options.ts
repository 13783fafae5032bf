/**
 * Command-line options that shape a load run, shared by `npm run load` and `npm run load:distributed`
 * so both take the same names; foundation/environment/config.ts readLoadRunSettings reads them, with
 * the environment (PROFILE, SCENARIOS, DURATION, VUS_SCALE, SEED) for what is not given.
 */
export const RUN_SHAPE_OPTIONS = {
  profile: { type: 'string' },
  scenarios: { type: 'string' },
  duration: { type: 'string' },
  'vus-scale': { type: 'string' },
  seed: { type: 'string' },
  run: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
