// allowed: a module of the engine's verdict floor with no imports (pure: the k6 bundle may load it)
export const verdict = 'verdict';
