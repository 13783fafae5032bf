// allowed: a module of the engine's discovery floor with no imports (pure: the k6 bundle may load it)
export const discovery = 'discovery';
