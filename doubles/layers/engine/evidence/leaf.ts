// allowed: a module of the engine's evidence floor with no imports (pure: the k6 bundle may load it)
export const evidence = 'evidence';
