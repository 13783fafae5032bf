// allowed: a module of the engine's transport floor with no imports (pure: the k6 bundle may load it)
export const transport = 'transport';
