// allowed: a module of the engine's execution floor with no imports (pure: the k6 bundle may load it)
export const execution = 'execution';
