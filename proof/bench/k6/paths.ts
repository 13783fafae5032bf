/**
 * Paths of the contract's operations, built from the generated operation table (contracts/openapi.yaml is
 * their one source), for the bare k6 loops and the Node side of the benchmarks alike: a route changed in
 * the contract moves every benchmark with it. Pure, so that k6 loads it too.
 */
import { OPERATIONS, type OperationId } from '../../../contracts/generated/operations.ts';

/**
 * A builder of one operation's path after the base URL. The template is split once, so that building a
 * path per request in a bare loop is plain concatenation, as a hand-written loop would do it.
 */
export function pathBuilder(operation: OperationId): (params?: Readonly<Record<string, string>>) => string {
  const parts = OPERATIONS[operation].path.split(/\{(\w+)\}/);
  const literals = parts.filter((_, i) => i % 2 === 0);
  const names = parts.filter((_, i) => i % 2 === 1);
  return (params = {}) => {
    let out = literals[0]!;
    for (let i = 0; i < names.length; i++) {
      const value = params[names[i]!];
      if (value === undefined) throw new Error(`${operation}: path parameter ${names[i]} missing`);
      out += encodeURIComponent(value) + literals[i + 1]!;
    }
    return out;
  };
}
