/** k6 provides `console` in every context; @types/k6 does not declare it and the DOM lib would declare far more than k6 has. */
declare const console: {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
};
