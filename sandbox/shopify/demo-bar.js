// The demo's bar (`npm run demo` only, served after the App Bridge stand-in): the courier's speed,
// pause and resume, and buttons that make a delivery fail, be returned or raise a courier
// exception, or send a customer's privacy request. Each button calls the demo's controls
// (scripts/support/demo-controls.ts) at window.__DEMO_CONTROLS__; the bar then says what happened
// and offers to reload the page to see what the app made of it.
//
// It is a small panel in the page's lower corner, folded to one line ("● Demo · Pause · Controls")
// on a phone and whenever the newcomer folds it; open on a wide screen
// until then. The choice is kept for the next page (localStorage).
(function () {
  const base = window.__DEMO_CONTROLS__;
  if (!base) return;
  const TEXT = {
    en: {
      demo: "Demo",
      courier: (s, paused) => (paused ? "Courier paused" : `A new status every ${s} s`),
      pause: "Pause",
      resume: "Resume",
      speed: "Courier speed",
      slow: "Slow",
      normal: "Normal",
      fast: "Fast",
      make: "Make something happen",
      fail: "A delivery fails",
      return: "A delivery is returned",
      exception: "Courier exception",
      privacy: "Privacy request",
      open: "Controls",
      close: "Fold",
      reload: "Reload to see it",
      done: {
        fail: (n) => `${n}: the delivery attempt failed (the customer did not answer).`,
        exception: (n) => `${n}: the courier could not find the address and raised an exception.`,
        return: (n) => `${n}: returned to the shop after two failed attempts.`,
        privacy: (n) => `A customer asked for their data (order ${n}): see Privacy requests.`,
      },
      failed: "Not possible now:",
      unreachable: "The demo's controls do not answer: is `npm run demo` still running?",
    },
    ar: {
      demo: "عرض تجريبي",
      courier: (s, paused) => (paused ? "شركة التوصيل متوقفة مؤقتًا" : `حالة جديدة كل ${s} ثانية`),
      pause: "إيقاف مؤقت",
      resume: "متابعة",
      speed: "سرعة شركة التوصيل",
      slow: "بطيء",
      normal: "عادي",
      fast: "سريع",
      make: "اجعل شيئًا يحدث",
      fail: "فشل توصيلة",
      return: "إرجاع توصيلة",
      exception: "استثناء من شركة التوصيل",
      privacy: "طلب خصوصية",
      open: "التحكم",
      close: "طيّ",
      reload: "أعد تحميل الصفحة لتراه",
      done: {
        fail: (n) => `${n}: فشلت محاولة التوصيل (لم يرد العميل).`,
        exception: (n) => `${n}: لم تجد شركة التوصيل العنوان وسجّلت استثناءً.`,
        return: (n) => `${n}: أُرجعت إلى المتجر بعد محاولتين فاشلتين.`,
        privacy: (n) => `طلب عميل بياناته (الطلب ${n}): راجع طلبات الخصوصية.`,
      },
      failed: "غير ممكن الآن:",
      // The controls explain in English; here, what that means in general.
      why: "لا توجد توصيلة لدى شركة التوصيل يمكن أن تصل إلى هذه الحالة الآن (انتهت أو تجاوزتها). أنجز طلبًا آخر ثم حاول مرة أخرى.",
      unreachable: "أدوات العرض التجريبي لا تستجيب: هل ما زال npm run demo يعمل؟",
    },
  };
  const t = document.documentElement.lang === "ar" ? TEXT.ar : TEXT.en;
  const KEY = "demo-bar-open";

  const style = document.createElement("style");
  style.textContent = [
    "#demo-bar{position:fixed;bottom:12px;inset-inline-end:12px;z-index:700;box-sizing:border-box;max-width:min(440px,calc(100vw - 24px));padding:8px 10px;border-radius:12px;background:#303030;color:#fff;font:13px/1.4 system-ui,sans-serif;box-shadow:0 4px 16px rgba(0,0,0,.25)}",
    "#demo-bar .row{display:flex;flex-wrap:wrap;align-items:center;gap:6px}",
    "#demo-bar .title{display:flex;align-items:center;gap:6px;font-weight:600;margin-inline-end:auto}",
    "#demo-bar .dot{width:8px;height:8px;border-radius:50%;background:#29c97a}",
    "#demo-bar[data-paused=true] .dot{background:#ffb800}",
    "#demo-bar .state{margin-inline-start:4px}",
    "#demo-bar button{font:inherit;min-height:32px;padding:4px 10px;border-radius:8px;border:1px solid #616161;background:#fff;color:#1a1a1a;cursor:pointer}",
    "#demo-bar button:focus-visible{outline:2px solid #7fb5ff;outline-offset:1px}",
    "#demo-bar button.quiet{background:transparent;color:#fff;border-color:#8a8a8a}",
    "#demo-bar button[aria-pressed=true]{background:#ffd79d;font-weight:600}",
    "#demo-bar .group{margin-top:8px;padding-top:8px;border-top:1px solid #4a4a4a}",
    "#demo-bar .label{flex-basis:100%;color:#cfcfcf;font-size:12px}",
    "#demo-bar output{display:block;margin-top:8px}",
    "#demo-bar output:empty{display:none}",
    "#demo-bar output button{margin-inline-start:6px;min-height:28px}",
    // Folded, the dot (green: running, amber: paused) and Pause or Resume say the courier's state.
    "#demo-bar[data-open=false] .more{display:none}",
  ].join("");
  document.head.appendChild(style);

  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  };
  const button = (label, command, className) => {
    const b = el("button", className, label);
    b.type = "button";
    if (command) {
      b.dataset.command = command;
      b.addEventListener("click", () => send(b.dataset.command));
    }
    return b;
  };

  const bar = el("section");
  bar.id = "demo-bar";
  bar.setAttribute("aria-label", t.demo);
  const state = el("span", "state");
  const title = el("span", "title");
  title.append(el("span", "dot"), el("span", "", t.demo));
  const pause = button(t.pause, "pause", "quiet");
  const toggle = button(t.open, null, "quiet");
  toggle.setAttribute("aria-controls", "demo-bar-more");
  toggle.addEventListener("click", () => setOpen(bar.dataset.open !== "true"));
  const speeds = [
    button(t.slow, "speed/slow"),
    button(t.normal, "speed/normal"),
    button(t.fast, "speed/fast"),
  ];
  const more = el("div", "more");
  more.id = "demo-bar-more";
  const speedRow = el("div", "row group");
  const speedLabel = el("span", "label", t.speed);
  speedLabel.append(state);
  speedRow.append(speedLabel, ...speeds);
  const makeRow = el("div", "row group");
  makeRow.append(
    el("span", "label", t.make),
    button(t.fail, "fail"),
    button(t.exception, "exception"),
    button(t.return, "return"),
    button(t.privacy, "privacy"),
  );
  more.append(speedRow, makeRow);
  const output = el("output");
  output.setAttribute("aria-live", "polite");
  const head = el("div", "row");
  head.append(title, pause, toggle);
  bar.append(head, more, output);

  // The page's end can scroll clear of the bar: a rule, not the body's style attribute, which
  // React would find changed if it has not finished hydrating yet.
  const room = document.createElement("style");
  document.head.appendChild(room);
  function fit() {
    room.textContent = `body{padding-bottom:${bar.offsetHeight + 24}px}`;
  }
  function setOpen(open) {
    bar.dataset.open = String(open);
    toggle.textContent = open ? t.close : t.open;
    toggle.setAttribute("aria-expanded", String(open));
    try {
      localStorage.setItem(KEY, String(open));
    } catch {
      // A page without storage folds by its width next time.
    }
    fit();
  }

  const SPEEDS = { "speed/slow": 120, "speed/normal": 60, "speed/fast": 10 };
  function say(text, withReload) {
    output.textContent = text;
    if (withReload) {
      const reload = button(t.reload, null);
      reload.addEventListener("click", () => location.reload());
      output.append(reload);
    }
    fit();
  }
  function show(answer) {
    if (answer.stepSeconds !== undefined) {
      state.textContent = `· ${t.courier(answer.stepSeconds, answer.paused)}`;
      title.title = t.courier(answer.stepSeconds, answer.paused);
      bar.dataset.paused = String(answer.paused);
      pause.textContent = answer.paused ? t.resume : t.pause;
      pause.dataset.command = answer.paused ? "resume" : "pause";
      for (const b of speeds)
        b.setAttribute("aria-pressed", String(SPEEDS[b.dataset.command] === answer.stepSeconds));
    }
    if (!answer.ok) say(`${t.failed} ${t.why ?? answer.error}`, false);
    else if (t.done[answer.command]) say(t.done[answer.command](answer.orderNumber), true);
    fit();
  }
  async function send(command) {
    try {
      const response = await fetch(`${base}/${command}`, { method: "POST" });
      show(await response.json());
    } catch {
      say(t.unreachable, false);
    }
  }
  const mount = () => {
    let stored = null;
    try {
      stored = localStorage.getItem(KEY);
    } catch {
      stored = null;
    }
    document.body.appendChild(bar);
    setOpen(stored === null ? window.innerWidth >= 700 : stored === "true");
    fetch(`${base}/state`)
      .then((r) => r.json())
      .then(show, () => say(t.unreachable, false));
  };
  // After React has hydrated the page: a node added to <body> before then breaks hydration.
  if (document.readyState === "complete") setTimeout(mount, 300);
  else window.addEventListener("load", () => setTimeout(mount, 300));
})();
