/** k6 provides `console` in every context; @types/k6 does not declare it and the DOM lib would declare far more than k6 has. */
declare const console: {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
};

/** The suite's k6 extension (load/xk6/wfcheck): offload mode's hand-over, done in Go. */
declare module 'k6/x/wfcheck' {
  import type { NativeHandover } from './contract.ts';
  const wfcheck: NativeHandover;
  export default wfcheck;
}
