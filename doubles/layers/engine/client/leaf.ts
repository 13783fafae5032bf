// allowed: a module of the engine's client floor with no imports (pure: the k6 bundle may load it)
export const client = 'client';
