import { ConsoleLogger, LogLevel } from '@nestjs/common';

/**
 * Nest's console logger, but every line goes to stderr: stdout is reserved for
 * the single "listening http://127.0.0.1:PORT/v1" readiness line.
 */
export class StderrLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, any>,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}
