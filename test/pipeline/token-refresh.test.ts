import { describeTokenRefresh } from "../support/suites/token-refresh";

describeTokenRefresh("SQLite");
