import { describe, expect, it } from "vitest";
import { requestFromPhone } from "../../app/components/small-screen";

const headers = (values: Record<string, string>) => new Headers(values);

describe("a phone's request, guessed for the server's first render", () => {
  it("believes Chrome's mobile hint either way", () => {
    expect(requestFromPhone(headers({ "sec-ch-ua-mobile": "?1" }))).toBe(true);
    // A desktop Chrome whose user agent was changed to a phone's still says ?0.
    expect(
      requestFromPhone(
        headers({ "sec-ch-ua-mobile": "?0", "user-agent": "Mozilla/5.0 (iPhone) Mobile/15E148" }),
      ),
    ).toBe(false);
  });

  it("reads the user agent where there is no hint (Safari, the Shopify app's WebView)", () => {
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";
    const ipad =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15";
    const android =
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36";
    const androidTablet =
      "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
    expect(requestFromPhone(headers({ "user-agent": iphone }))).toBe(true);
    expect(requestFromPhone(headers({ "user-agent": android }))).toBe(true);
    expect(requestFromPhone(headers({ "user-agent": ipad }))).toBe(false);
    expect(requestFromPhone(headers({ "user-agent": androidTablet }))).toBe(false);
    expect(requestFromPhone(headers({}))).toBe(false);
  });
});
