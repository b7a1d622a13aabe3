// The application's one stylesheet, served from the binary at /app/assets/app.css (no CDN, no web fonts).
export const STYLESHEET = `
*,*::before,*::after{box-sizing:border-box}
:root{--ink:#1d2430;--muted:#5b6472;--line:#d9dee5;--bg:#f5f7fa;--card:#fff;--accent:#1f5fbf;--accent-ink:#fff;--bad:#b3261e;--bad-bg:#fdecea;--ok:#1e6b3a;--ok-bg:#e7f4ec;--warn-bg:#fff6dd;--radius:6px}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:16px;line-height:1.5;color:var(--ink);background:var(--bg)}
body{margin:0}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #8bb4f0;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:9}
header.top{background:#fff;border-bottom:1px solid var(--line)}
header.top .bar{max-width:1100px;margin:0 auto;padding:8px 16px;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center}
.brand{font-weight:700;color:var(--ink);text-decoration:none;margin-right:auto}
.switcher{display:flex;gap:6px;align-items:center}
.switcher select{max-width:14rem}
nav.main{max-width:1100px;margin:0 auto;padding:0 16px;display:flex;flex-wrap:wrap;gap:4px 16px}
nav.main a{display:inline-block;padding:8px 0;text-decoration:none;color:var(--muted);border-bottom:3px solid transparent}
nav.main a[aria-current=page]{color:var(--ink);border-bottom-color:var(--accent)}
main{max-width:1100px;margin:0 auto;padding:16px}
.with-side{display:grid;grid-template-columns:13rem 1fr;gap:24px;align-items:start}
.side{display:flex;flex-direction:column;background:#fff;border:1px solid var(--line);border-radius:var(--radius);overflow:hidden}
.side a{padding:8px 12px;text-decoration:none;color:var(--ink);border-left:3px solid transparent}
.side a[aria-current=page]{background:#eef3fb;border-left-color:var(--accent);font-weight:600}
h1{font-size:1.5rem;margin:0 0 12px}
h2{font-size:1.15rem;margin:24px 0 8px}
p.lead{color:var(--muted);margin-top:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:16px;margin-bottom:16px}
.narrow{max-width:26rem;margin:48px auto}
form.stack{display:flex;flex-direction:column;gap:12px}
.field{display:flex;flex-direction:column;gap:4px}
.field label,.legend{font-weight:600}
.hint{color:var(--muted);font-size:.9rem}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=number],select,textarea{font:inherit;padding:8px 10px;border:1px solid #aeb6c2;border-radius:var(--radius);background:#fff;width:100%;max-width:36rem}
.field.bad input,.field.bad select{border-color:var(--bad)}
.err{color:var(--bad);font-size:.9rem;margin:0}
.checks{display:flex;flex-wrap:wrap;gap:6px 16px;border:0;padding:0;margin:0}
.checks label{font-weight:400;display:flex;gap:6px;align-items:center}
button,.button{font:inherit;display:inline-block;padding:8px 14px;border-radius:var(--radius);border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);cursor:pointer;text-decoration:none}
button.quiet{background:#fff;color:var(--accent)}
button.danger{background:#fff;color:var(--bad);border-color:var(--bad)}
button.link{background:none;border:0;color:var(--accent);padding:0;text-decoration:underline}
.row{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
form.inline{display:inline}
.notice{padding:10px 14px;border-radius:var(--radius);margin-bottom:16px;border:1px solid}
.notice.ok{background:var(--ok-bg);border-color:#b7dcc4;color:var(--ok)}
.notice.bad{background:var(--bad-bg);border-color:#f0b8b3;color:var(--bad)}
.notice.warn{background:var(--warn-bg);border-color:#ecd58a}
.secret{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all;background:#fff;border:1px dashed #aeb6c2;padding:8px;border-radius:var(--radius);display:block;user-select:all}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:8px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;color:var(--muted);font-weight:600}
.muted{color:var(--muted)}
.flush{margin:0}.flush-top{margin:0 0 6px}
.tag{display:inline-block;padding:1px 8px;border-radius:99px;background:#eef1f5;font-size:.85rem}
.tag.bad{background:var(--bad-bg);color:var(--bad)}
.tag.ok{background:var(--ok-bg);color:var(--ok)}
details{margin:4px 0}
summary{cursor:pointer}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0}
@media (max-width:720px){
 .with-side{grid-template-columns:1fr}
 .side{flex-direction:row;flex-wrap:wrap}
 .side a{border-left:0;border-bottom:3px solid transparent;padding:6px 10px}
 .side a[aria-current=page]{border-bottom-color:var(--accent)}
 .narrow{margin:16px auto}
 th,td{padding:6px}
 .switcher{width:100%}
 .switcher select{max-width:none;flex:1}
}
`
