// allowed: a module of the engine's runner floor with no imports (pure: the k6 bundle may load it)
export const runner = 'runner';
