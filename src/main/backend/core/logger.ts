/**
 * The backend's one logger, injected wherever something unexpected must be recorded: levels, a
 * message saying what happened, and fields (an `error` field keeps its cause). Lines never carry a
 * secret (the file logger redacts).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

export interface LoggedLine {
  level: LogLevel;
  message: string;
  fields: LogFields;
}

/** A logger that keeps its lines in memory: for tests, and until a file logger exists. */
export function createMemoryLogger(): Logger & { lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const at =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}): void => {
      lines.push({ level, message, fields });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
