import { describePausedWorker } from "../support/suites/paused-worker";

describePausedWorker("SQLite");
