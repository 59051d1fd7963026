// The demo's bar (`npm run demo` only, served after the App Bridge stand-in): the courier's speed,
// pause and resume, and buttons that make a delivery fail, be returned or raise a courier
// exception, or send a customer's privacy request. Each button calls the demo's controls
// (scripts/support/demo-controls.ts) at window.__DEMO_CONTROLS__; the page then shows what the
// app made of it (reload, or wait for the next status).
(function () {
  const base = window.__DEMO_CONTROLS__;
  if (!base) return;
  const TEXT = {
    en: {
      demo: "Demo",
      courier: (s, paused) => (paused ? "Courier paused" : `Courier: a new status every ${s} s`),
      pause: "Pause",
      resume: "Resume",
      slow: "Slow",
      normal: "Normal",
      fast: "Fast",
      fail: "Make a delivery fail",
      return: "Return a delivery",
      exception: "Courier exception",
      privacy: "Privacy request",
      done: {
        fail: (n) => `${n}: the delivery attempt failed (the customer did not answer).`,
        exception: (n) => `${n}: the courier could not find the address and raised an exception.`,
        return: (n) => `${n}: returned to the shop after two failed attempts.`,
        privacy: (n) => `A customer asked for their data (order ${n}): see Privacy requests.`,
      },
      failed: "Not possible now:",
    },
    ar: {
      demo: "عرض تجريبي",
      courier: (s, paused) =>
        paused ? "شركة التوصيل متوقفة مؤقتًا" : `شركة التوصيل: حالة جديدة كل ${s} ثانية`,
      pause: "إيقاف مؤقت",
      resume: "متابعة",
      slow: "بطيء",
      normal: "عادي",
      fast: "سريع",
      fail: "إفشال توصيلة",
      return: "إرجاع توصيلة",
      exception: "استثناء من شركة التوصيل",
      privacy: "طلب خصوصية",
      done: {
        fail: (n) => `${n}: فشلت محاولة التوصيل (لم يرد العميل).`,
        exception: (n) => `${n}: لم تجد شركة التوصيل العنوان وسجّلت استثناءً.`,
        return: (n) => `${n}: أُرجعت إلى المتجر بعد محاولتين فاشلتين.`,
        privacy: (n) => `طلب عميل بياناته (الطلب ${n}): راجع طلبات الخصوصية.`,
      },
      failed: "غير ممكن الآن:",
      // The controls explain in English; here, what that means in general.
      why: "لا توجد توصيلة لدى شركة التوصيل يمكن أن تصل إلى هذه الحالة الآن (انتهت أو تجاوزتها). أنجز طلبًا آخر ثم حاول مرة أخرى.",
    },
  };
  const t = document.documentElement.lang === "ar" ? TEXT.ar : TEXT.en;

  const style = document.createElement("style");
  style.textContent =
    "#demo-bar{position:fixed;inset-inline:0;bottom:0;z-index:700;display:flex;flex-wrap:wrap;align-items:center;gap:6px 8px;padding:8px 12px;background:#30373b;color:#fff;font:13px system-ui,sans-serif}" +
    "#demo-bar b{margin-inline-end:4px}#demo-bar button{font:inherit;padding:4px 10px;border-radius:8px;border:1px solid #8a8a8a;background:#fff;color:#1a1a1a;cursor:pointer}" +
    "#demo-bar button[aria-pressed=true]{background:#ffd79d;font-weight:600}#demo-bar .sep{width:1px;align-self:stretch;background:#8a8a8a}" +
    "#demo-bar output{flex-basis:100%;min-height:1em}";
  document.head.appendChild(style);

  const bar = document.createElement("div");
  bar.id = "demo-bar";
  bar.setAttribute("role", "region");
  bar.setAttribute("aria-label", t.demo);
  const title = document.createElement("b");
  title.textContent = t.demo;
  const state = document.createElement("span");
  const output = document.createElement("output");
  const button = (label, command) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.command = command;
    b.addEventListener("click", () => send(command));
    return b;
  };
  const sep = () => {
    const s = document.createElement("span");
    s.className = "sep";
    return s;
  };
  const pause = button(t.pause, "pause");
  const speeds = [
    button(t.slow, "speed/slow"),
    button(t.normal, "speed/normal"),
    button(t.fast, "speed/fast"),
  ];
  bar.append(
    title,
    state,
    pause,
    ...speeds,
    sep(),
    button(t.fail, "fail"),
    button(t.exception, "exception"),
    button(t.return, "return"),
    sep(),
    button(t.privacy, "privacy"),
    output,
  );

  const SPEEDS = { "speed/slow": 120, "speed/normal": 60, "speed/fast": 10 };
  function show(answer) {
    if (answer.stepSeconds !== undefined) {
      state.textContent = t.courier(answer.stepSeconds, answer.paused);
      pause.textContent = answer.paused ? t.resume : t.pause;
      pause.dataset.command = answer.paused ? "resume" : "pause";
      for (const b of speeds)
        b.setAttribute("aria-pressed", String(SPEEDS[b.dataset.command] === answer.stepSeconds));
    }
    if (!answer.ok) output.textContent = `${t.failed} ${t.why ?? answer.error}`;
    else if (t.done[answer.command])
      output.textContent = t.done[answer.command](answer.orderNumber);
  }
  async function send(command) {
    command = command === "pause" ? pause.dataset.command : command;
    const response = await fetch(`${base}/${command}`, { method: "POST" });
    show(await response.json());
  }
  const mount = () => {
    document.body.appendChild(bar);
    document.body.style.paddingBottom = `${bar.offsetHeight + 8}px`;
    fetch(`${base}/state`)
      .then((r) => r.json())
      .then(show, () => {});
  };
  // After React has hydrated the page: a node added to <body> before then breaks hydration.
  if (document.readyState === "complete") setTimeout(mount, 300);
  else window.addEventListener("load", () => setTimeout(mount, 300));
})();
