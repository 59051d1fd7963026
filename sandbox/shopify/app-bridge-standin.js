// A local stand-in for Shopify's App Bridge script (cdn.shopify.com/shopifycloud/app-bridge.js),
// for browser tests and the offline demo only. Like the real one it exposes `window.shopify` and
// adds the session token to the app's own fetches; it draws toasts as plain elements and the
// contextual save bar (<ui-save-bar>) as a bar over the top of the page with its buttons.
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

  // <ui-save-bar>: hidden until show(); its <button> children are the bar's actions, as in the
  // admin, where a page cannot be left silently while it is shown.
  if (!customElements.get("ui-save-bar")) {
    customElements.define(
      "ui-save-bar",
      class extends HTMLElement {
        show() {
          this.setAttribute("data-shown", "");
          this.dispatchEvent(new Event("show"));
        }
        hide() {
          if (!this.hasAttribute("data-shown")) return;
          this.removeAttribute("data-shown");
          this.dispatchEvent(new Event("hide"));
        }
        toggle() {
          if (this.hasAttribute("data-shown")) this.hide();
          else this.show();
        }
        get showing() {
          return this.hasAttribute("data-shown");
        }
      },
    );
  }
  window.shopify.saveBar = {
    show: async (id) => document.getElementById(id)?.show(),
    hide: async (id) => document.getElementById(id)?.hide(),
    toggle: async (id) => document.getElementById(id)?.toggle(),
    leaveConfirmation: async () => {},
  };

  // The admin draws <ui-nav-menu> beside the app; the stand-in draws it as a bar above the page,
  // wrapping on a phone's width so it never makes the page wider than the screen.
  const style = document.createElement("style");
  style.textContent =
    "ui-nav-menu{display:flex;flex-wrap:wrap;gap:8px 20px;padding:10px 20px;background:#1a1a1a;font:14px system-ui,sans-serif}" +
    "ui-nav-menu a{color:#e3e3e3;text-decoration:none;white-space:nowrap}ui-nav-menu a[rel=home]{font-weight:600;color:#fff}" +
    "ui-save-bar{display:none}ui-save-bar[data-shown]{display:flex;gap:8px;justify-content:flex-end;position:sticky;top:0;z-index:600;padding:8px 16px;background:#1a1a1a}" +
    "ui-save-bar button{font:14px system-ui,sans-serif;padding:6px 12px;border-radius:8px;border:1px solid #8a8a8a;background:#fff;color:#1a1a1a}" +
    "ui-save-bar button[variant=primary]{background:#fff;font-weight:600}";
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
