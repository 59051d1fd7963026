// The same suite as on SQLite, against PostgreSQL: one storage wrapper for every adapter.
import "../integration/sealed-sessions.test";
