/**
 * Whether a PostgreSQL error means the connection itself was lost (the server restarted, failed
 * over, or ended the backend) rather than the statement being refused. A transaction that met
 * one committed nothing, so it may run again on a new connection.
 */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  // 57P01 admin_shutdown (pg_terminate_backend), 57P02 crash_shutdown, 57P03 cannot_connect_now,
  // class 08 connection exceptions.
  if (typeof code === "string" && (/^57P0[123]$/.test(code) || code.startsWith("08"))) return true;
  return /Connection terminated|ECONNRESET|ECONNREFUSED|Client has encountered a connection error/i.test(
    error.message,
  );
}
