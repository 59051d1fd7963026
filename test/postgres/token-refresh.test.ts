import { describeTokenRefresh } from "../support/suites/token-refresh";

describeTokenRefresh("PostgreSQL");
