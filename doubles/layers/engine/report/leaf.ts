// allowed: a module of the engine's report floor with no imports (pure: the k6 bundle may load it)
export const report = 'report';
