/**
 * Command-line options that shape a load run, shared by `npm run load` and `npm run load:distributed`
 * so both read the same names and the same environment defaults.
 */
export const RUN_SHAPE_OPTIONS = {
  profile: { type: 'string', default: process.env.PROFILE || 'smoke' },
  scenarios: { type: 'string', default: process.env.SCENARIOS },
  duration: { type: 'string', default: process.env.DURATION },
  'vus-scale': { type: 'string', default: process.env.VUS_SCALE },
  seed: { type: 'string', default: process.env.SEED },
  run: { type: 'string' },
} as const;
