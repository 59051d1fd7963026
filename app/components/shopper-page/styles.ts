/**
 * The shopper's page's own stylesheet: no Polaris and no web font that could shift the page (the
 * system's, and Noto Sans Arabic only once cached, root's `optional` face). Logical properties
 * (inline-start/end) so one sheet lays out English and Arabic. Inputs are 16 px: phones zoom in
 * on smaller ones.
 */
export const SHOPPER_PAGE_CSS = `
body{margin:0;background:#f2f3f5}
.sp{color:#16181d;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Arabic","Noto Sans",sans-serif;-webkit-text-size-adjust:100%}
.sp *,.sp *::before,.sp *::after{box-sizing:border-box}
.sp-wrap{max-width:560px;margin:0 auto;padding:10px 12px 40px}
.sp-top{display:flex;justify-content:space-between;align-items:center;gap:12px;min-height:48px;padding:0 4px}
.sp-shop{font-size:18px;font-weight:700;margin:0;overflow-wrap:anywhere}
.sp-lang{flex:none;font-size:15px;font-weight:600;color:#1447c4;text-decoration:none;border:1px solid #c9d4f4;background:#fff;border-radius:999px;padding:7px 16px}
.sp-card{background:#fff;border-radius:16px;padding:18px 16px;margin-top:12px;box-shadow:0 1px 2px rgba(16,24,40,.08)}
.sp h1{font-size:23px;line-height:1.3;margin:0}
.sp h2{font-size:18px;line-height:1.35;margin:0 0 10px}
.sp p{margin:0}
.sp-meta{display:flex;flex-wrap:wrap;gap:2px 16px;margin-top:8px;color:#4a4f5a;font-size:15px}
.sp-meta b{color:#16181d}
.sp-list{margin:12px 0 0;padding:0;list-style:none}
.sp-list li{position:relative;padding-inline-start:18px;margin-top:4px}
.sp-list li::before{content:"";position:absolute;inset-inline-start:2px;top:.62em;width:7px;height:7px;border-radius:50%;background:#c2410c}
.sp-soft{color:#4a4f5a;font-size:15px;margin-top:10px}
.sp-thanks{background:#ecfdf3;border:2px solid #12b76a}
.sp-thanks h1{color:#05603a}
.sp-thanks p{margin-top:8px}
.sp-alert{background:#fef3f2;border:2px solid #f04438;color:#7a271a;font-weight:600}
.sp-alert a{color:inherit}
.sp-alert ul{margin:8px 0 0;padding-inline-start:20px;font-weight:400}
.sp-info{background:#eff4ff;border-radius:12px;padding:12px 14px;margin-top:12px;font-size:15px;color:#1d2b5c}
.sp-warn{background:#fffaeb;border-radius:12px;padding:12px 14px;margin-top:12px;font-size:15px;color:#7a2e0e}
.sp-cash{background:#fffaeb;border:2px solid #f79009}
.sp-cash-label{font-size:15px;font-weight:600;color:#93370d}
.sp-cash-amount{display:block;font-size:36px;font-weight:800;line-height:1.15;margin:2px 0 4px;font-variant-numeric:tabular-nums;color:#16181d}
.sp-cash-amount small{font-size:20px;font-weight:700;margin-inline-start:6px}
.sp-addr{display:grid;grid-template-columns:minmax(88px,auto) 1fr;gap:6px 14px;margin:0}
.sp-addr dt{color:#5d6470}
.sp-addr dd{margin:0;font-weight:600;overflow-wrap:anywhere}
.sp-typed{margin-top:10px;padding:10px 12px;border-radius:10px;background:#f2f3f5;overflow-wrap:anywhere}
.sp-typed span{display:block;font-size:13px;color:#5d6470}
.sp-actions{margin-top:16px;display:grid;gap:12px}
.sp-btn{display:flex;align-items:center;justify-content:center;gap:8px;width:100%;min-height:52px;border:0;border-radius:12px;font:inherit;font-size:17px;font-weight:700;padding:12px 16px;cursor:pointer;text-decoration:none;text-align:center}
.sp-btn-go{background:#067647;color:#fff}
.sp-btn-go[disabled]{background:#5d8f78}
.sp-btn-alt{background:#fff;color:#1447c4;border:2px solid #1447c4}
.sp-btn-quiet{background:#eff4ff;color:#1447c4;min-height:48px;font-size:16px}
.sp-field .sp-check,.sp-check{display:flex;gap:12px;align-items:flex-start;padding:12px;border:2px solid #f79009;border-radius:12px;background:#fffaeb;font-weight:600;cursor:pointer}
.sp-check input{width:24px;height:24px;margin:0;flex:none;accent-color:#067647}
.sp-fix{margin-top:4px}
.sp-fix>summary{list-style:none}
.sp-fix>summary::-webkit-details-marker{display:none}
.sp-fix[open]>summary{margin-bottom:16px}
.sp-form{display:grid;gap:14px}
.sp-grid{display:grid;grid-template-columns:1fr 1fr;gap:14px 12px}
.sp-field{min-width:0}
.sp-grid>.sp-field{display:flex;flex-direction:column;justify-content:flex-end}
.sp-grid>.sp-field>label{flex:1}
.sp-field label,.sp-label{display:block;font-weight:600;font-size:15px;margin-bottom:4px}
.sp-field label small{font-weight:400;color:#5d6470}
.sp-input{display:block;width:100%;min-height:48px;font:inherit;font-size:16px;padding:10px 12px;border:1.5px solid #98a2b3;border-radius:10px;background:#fff;color:inherit}
.sp-input:focus{outline:3px solid #b2ccff;border-color:#1447c4}
textarea.sp-input{min-height:84px;resize:vertical}
.sp-input.need{border-color:#f79009;border-width:2px;background:#fffcf5}
.sp-field label small.sp-needed{color:#b54708;font-weight:700}
.sp-field.bad .sp-input{border-color:#d92d20;border-width:2px;background:#fffbfa}
.sp-err{color:#b42318;font-size:15px;font-weight:600;margin-top:4px}
.sp-hint{color:#5d6470;font-size:14px;margin-top:4px}
.sp-results{list-style:none;margin:6px 0 0;padding:0;border:1px solid #d0d5dd;border-radius:10px;overflow:hidden}
.sp-results li+li{border-top:1px solid #eaecf0}
.sp-results button{display:block;width:100%;min-height:48px;padding:10px 12px;border:0;background:#fff;font:inherit;text-align:start;cursor:pointer}
.sp-results button:hover,.sp-results button:focus{background:#eff4ff}
.sp-results small{color:#5d6470}
.sp-steps{list-style:none;margin:8px 0 0;padding:0}
.sp-steps li{position:relative;padding:0 0 18px;padding-inline-start:30px}
.sp-steps li::before{content:"";position:absolute;inset-inline-start:4px;top:5px;width:14px;height:14px;border-radius:50%;background:#12b76a}
.sp-steps li::after{content:"";position:absolute;inset-inline-start:10px;top:21px;bottom:1px;width:2px;background:#d0d5dd}
.sp-steps li:last-child{padding-bottom:0}
.sp-steps li:last-child::after{display:none}
.sp-steps li.now::before{background:#1447c4;box-shadow:0 0 0 5px #d1e0ff}
.sp-steps li.ahead{color:#5d6470}
.sp-steps li.ahead::before{background:#fff;border:2px solid #98a2b3}
.sp-step{display:block;font-weight:600}
.sp-steps li.now .sp-step{color:#1447c4}
.sp-steps li.ahead .sp-step{font-weight:400}
.sp-when{display:block;font-size:14px;color:#5d6470}
.sp-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.sp-fix-title{font-size:17px;margin:0 0 12px;padding-top:16px;border-top:1px solid #eaecf0}
.sp-items{list-style:none;margin:0;padding:0}
.sp-items li{display:flex;gap:10px;padding:8px 0;border-top:1px solid #eaecf0}
.sp-items li:first-child{border-top:0;padding-top:0}
.sp-qty{flex:none;min-width:36px;font-weight:700;color:#4a4f5a}
.sp-contact{display:grid;gap:10px;margin-top:12px}
.sp-wa{background:#e7f8ee;color:#075e3c;border:2px solid #25a35a}
.sp-tel{background:#fff;color:#1447c4;border:2px solid #1447c4}
.sp-mail{font-size:15px;font-weight:600;color:#1447c4;overflow-wrap:anywhere}
.sp-done{color:#067647;font-weight:700}
.sp-when-fields{display:grid;gap:14px}
.sp-set{border:0;margin:0;padding:0;min-width:0}
.sp-set legend{padding:0;margin-bottom:6px}
.sp-choices{display:grid;grid-template-columns:1fr 1fr;gap:8px}
.sp-choices-3{grid-template-columns:1fr 1fr 1fr}
.sp-set .sp-choice{display:flex;margin:0;gap:8px;align-items:center;min-height:52px;padding:8px 10px;border:1.5px solid #98a2b3;border-radius:12px;background:#fff;cursor:pointer;font-weight:600;font-size:15px;line-height:1.25}
.sp-choices>*{min-width:0}
.sp-set .sp-choices-3 .sp-choice{flex-direction:column;align-items:flex-start;gap:4px}
.sp-choice span{min-width:0;overflow-wrap:anywhere}
.sp-choice input{width:20px;height:20px;margin:0;flex:none;accent-color:#1447c4}
.sp-choice small{display:block;font-weight:400;font-size:13px;color:#5d6470}
.sp-choice:has(input:checked){border:2px solid #1447c4;background:#eff4ff}
.sp-set.bad .sp-choice{border-color:#d92d20}
@media (min-width:720px){.sp-wrap{padding-top:24px}.sp-card{padding:22px 24px}}
`;

/** Without JavaScript the search box, the governorate filter and "use my location" do nothing. */
export const WITHOUT_SCRIPT_CSS = ".sp-js{display:none!important}";
