import { describeDeliveryList } from "../support/suites/delivery-list";

describeDeliveryList("SQLite");
