import { describeCourierOutage } from "../support/suites/courier-outage";

describeCourierOutage("SQLite");
