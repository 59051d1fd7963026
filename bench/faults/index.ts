/** The scenarios of `npm run bench:faults`, in the order they run (bench/faults.ts). */
import * as busyIntake from "./busy-intake";
import * as concurrentActions from "./concurrent-actions";
import * as courierOutage from "./courier-outage";
import * as databaseDrop from "./database-drop";
import * as historyPaging from "./history-paging";
import * as largeOrders from "./large-orders";
import * as lateCommit from "./late-commit";
import * as lockedDatabase from "./locked-database";
import * as pausedWorker from "./paused-worker";
import * as shopifySide from "./shopify-side";
import * as tokenRefresh from "./token-refresh";
import * as trackingKills from "./tracking-kills";

export interface FaultScenario {
  name: string;
  run(log: (line: string) => void): Promise<Record<string, number>>;
}

export const scenarios: FaultScenario[] = [
  { name: "paused worker", run: pausedWorker.run },
  { name: "late commits", run: lateCommit.run },
  { name: "history paging", run: historyPaging.run },
  { name: "courier outage", run: courierOutage.run },
  { name: "missed webhooks", run: shopifySide.missedWebhooks },
  { name: "shopify throttling", run: shopifySide.shopifyThrottling },
  { name: "tracking crashes", run: shopifySide.trackingCrashes },
  { name: "large orders", run: largeOrders.run },
  { name: "tracking kills", run: trackingKills.run },
  { name: "token refresh", run: tokenRefresh.run },
  { name: "concurrent actions", run: concurrentActions.run },
  { name: "busy intake", run: busyIntake.run },
  { name: "database drop", run: databaseDrop.run },
  { name: "locked database", run: lockedDatabase.run },
];
