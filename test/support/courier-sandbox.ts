import { afterAll, beforeAll, beforeEach } from "vitest";
import { resetEnvForTests } from "../../app/env.server";
import { startCourierSandbox } from "../../sandbox/courier";
import { SANDBOX_KEY } from "./test-env";

export { SANDBOX_KEY } from "./test-env";

type Sandbox = Awaited<ReturnType<typeof startCourierSandbox>>;

/**
 * Starts the courier sandbox on a free port for this test file and points the app's sandbox
 * environment at it; every test starts with its orders, faults and log emptied.
 */
export function setUpCourierSandbox(options: Parameters<typeof startCourierSandbox>[0] = {}) {
  const holder: { sandbox?: Sandbox } = {};
  beforeAll(async () => {
    holder.sandbox = await startCourierSandbox({ acceptedKeys: [SANDBOX_KEY], ...options });
    process.env.COURIER_SANDBOX_URL = holder.sandbox.url;
    resetEnvForTests();
  });
  beforeEach(() => holder.sandbox?.reset());
  afterAll(async () => {
    await holder.sandbox?.close();
  });
  return () => {
    if (!holder.sandbox) throw new Error("the courier sandbox has not started");
    return holder.sandbox;
  };
}
