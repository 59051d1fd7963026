// A local stand-in for Shopify's App Bridge script (cdn.shopify.com/shopifycloud/app-bridge.js),
// for browser tests and the offline demo only. Like the real one it exposes `window.shopify` and
// adds the session token to the app's own fetches; it draws toasts as plain elements.
(function () {
  const KEY = "app-bridge-standin:id_token";
  const params = new URLSearchParams(window.location.search);
  const fromUrl = params.get("id_token");
  if (fromUrl) sessionStorage.setItem(KEY, fromUrl);
  const token = () => sessionStorage.getItem(KEY) || "";

  const script = document.currentScript;
  window.shopify = {
    config: {
      apiKey: script ? script.getAttribute("data-api-key") : "",
      shop: params.get("shop") || "",
      host: params.get("host") || "",
    },
    environment: { embedded: true, mobile: false, pos: false },
    idToken: async () => token(),
    loading: () => {},
    toast: {
      show(message) {
        const el = document.createElement("div");
        el.setAttribute("data-standin-toast", "");
        el.setAttribute("role", "status");
        el.textContent = message;
        document.body.appendChild(el);
        setTimeout(() => el.remove(), 5000);
      },
    },
  };

  // The admin draws <ui-nav-menu> beside the app; the stand-in draws it as a bar above the page.
  const style = document.createElement("style");
  style.textContent =
    "ui-nav-menu{display:flex;gap:20px;padding:10px 20px;background:#1a1a1a;font:14px system-ui,sans-serif}" +
    "ui-nav-menu a{color:#e3e3e3;text-decoration:none}ui-nav-menu a[rel=home]{font-weight:600;color:#fff}";
  document.head.appendChild(style);

  const originalFetch = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const request = new Request(input, init);
    const sameOrigin = new URL(request.url, window.location.href).origin === window.location.origin;
    if (sameOrigin && !request.headers.has("Authorization") && token()) {
      const headers = new Headers(request.headers);
      headers.set("Authorization", `Bearer ${token()}`);
      return originalFetch(new Request(request, { headers }));
    }
    return originalFetch(request);
  };
})();
