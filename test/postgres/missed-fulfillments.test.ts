import { describeMissedFulfillments } from "../support/suites/missed-fulfillments";

describeMissedFulfillments("PostgreSQL");
