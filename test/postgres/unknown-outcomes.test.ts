import { describeUnknownOutcomes } from "../support/suites/unknown-outcomes";

describeUnknownOutcomes("PostgreSQL");
