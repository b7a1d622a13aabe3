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
.switcher select{max-width:20rem;width:auto}
nav.main{max-width:1100px;margin:0 auto;padding:0 16px;display:flex;flex-wrap:wrap;gap:4px 16px}
nav.main a{display:inline-block;padding:8px 0;text-decoration:none;color:var(--muted);border-bottom:3px solid transparent}
nav.main a[aria-current=page]{color:var(--ink);border-bottom-color:var(--accent)}
main{max-width:1100px;margin:0 auto;padding:16px}
.with-side{display:grid;grid-template-columns:13rem minmax(0,1fr);gap:24px;align-items:start}
.with-side>*{min-width:0}
.side{display:flex;flex-direction:column;background:#fff;border:1px solid var(--line);border-radius:var(--radius);overflow:hidden}
.side a{padding:8px 12px;text-decoration:none;color:var(--ink);border-left:3px solid transparent}
.side a[aria-current=page]{background:#eef3fb;border-left-color:var(--accent);font-weight:600}
h1{font-size:1.5rem;margin:0 0 12px;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin:24px 0 8px}
p.lead{color:var(--muted);margin-top:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:16px;margin-bottom:16px;overflow-wrap:break-word}
.narrow{max-width:26rem;margin:48px auto}
form.stack{display:flex;flex-direction:column;gap:12px}
.field{display:flex;flex-direction:column;gap:4px}
.field label,.legend{font-weight:600}
.hint{color:var(--muted);font-size:.9rem}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=number],input[type=search],input[type=date],select,textarea{font:inherit;padding:8px 10px;border:1px solid #aeb6c2;border-radius:var(--radius);background:#fff;width:100%;max-width:36rem}
.field.bad input,.field.bad select{border-color:var(--bad)}
.err{color:var(--bad);font-size:.9rem;margin:0}
.checks{display:flex;flex-wrap:wrap;gap:6px 16px;border:0;padding:0;margin:0}
.checks label{font-weight:400;display:flex;gap:6px;align-items:center}
button,.button{font:inherit;display:inline-block;padding:8px 14px;border-radius:var(--radius);border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);cursor:pointer;text-decoration:none}
button.quiet,.button.quiet{background:#fff;color:var(--accent)}
.default-submit{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
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
.table-wrap{overflow-x:auto;margin-bottom:16px}
.pair select{width:auto}
.card>h2.flush{margin-bottom:8px}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:8px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;color:var(--muted);font-weight:600}
.muted{color:var(--muted)}
.logo-now{margin:0 0 12px;padding:12px;border:1px dashed var(--line);border-radius:var(--radius);display:inline-block;background:#fff}
.logo-preview{display:block;max-width:100%;max-height:6rem;height:auto}
.with-swatch{display:flex;gap:12px;align-items:center}
.with-swatch>.field{flex:0 1 36rem;min-width:0}
.swatch{flex:0 0 auto}
input[type=file]{font:inherit;max-width:100%}
.nowrap{white-space:nowrap}
.flush{margin:0}.flush-top{margin:0 0 6px}
.tag{display:inline-block;padding:1px 8px;border-radius:99px;background:#eef1f5;font-size:.85rem}
.tag.bad{background:var(--bad-bg);color:var(--bad)}
.tag.ok{background:var(--ok-bg);color:var(--ok)}
details{margin:4px 0}
summary{cursor:pointer}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:4px 16px;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
pre.mail-body{white-space:pre-wrap;overflow-wrap:anywhere;font-family:inherit;margin:0;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);padding:12px}
@media (max-width:720px){
 .with-side{grid-template-columns:minmax(0,1fr)}
 .side{flex-direction:row;flex-wrap:wrap}
 .side a{border-left:0;border-bottom:3px solid transparent;padding:6px 10px}
 .side a[aria-current=page]{border-bottom-color:var(--accent)}
 .narrow{margin:16px auto}
 th,td{padding:6px}
 .switcher{width:100%}
 .switcher select{max-width:none;flex:1;min-width:0;width:100%}
}
/* daily-work pages */
.row.spread{justify-content:space-between;margin-bottom:8px}
.table-wrap{position:relative}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.num,th.num{text-align:right}
.cur{color:var(--muted);font-size:.85em}
.tag.draft{background:#fff6dd}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:16px;margin-bottom:16px}
.figures>.card,.doc-grid>.card{margin-bottom:0}
.figure h2{margin:0 0 4px;font-size:1rem;color:var(--muted);font-weight:600}
.big{font-size:1.6rem;font-weight:700;margin:0 0 4px}
.big.bad{color:var(--bad)}
.chart{display:block;max-width:100%;height:auto}
.chart-narrow{display:none}
.chart-grid{stroke:var(--line);stroke-width:1}
.chart-zero{stroke:#98a2b3}
.chart-axis,.chart-label{fill:var(--muted);font-family:inherit}
.chart-bar rect{fill:#8fb3e8}
.chart-bar.chart-current rect{fill:var(--accent)}
.chart-bar.chart-negative rect{fill:#e8a19c}
.doc-grid{display:grid;grid-template-columns:1fr 1fr;gap:16px;margin-bottom:16px}
.grid2{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px 16px}
.grid3{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:12px 16px}
/* A list's filter row: each control under its label, every control, button and link the same height, so the labels
   share one line and the controls one edge; narrow, the documents' filters wrap into two columns. */
.filters{display:flex;flex-wrap:wrap;gap:8px 12px;align-items:flex-end;margin-bottom:12px}
.filters label{display:flex;flex-direction:column;font-size:.9rem;line-height:1.4;color:var(--muted);gap:2px}
.filters input,.filters select,.filters button,.filters .button{height:2.5rem;margin:0}
.filters input,.filters select{width:auto;min-width:9rem;padding-top:0;padding-bottom:0}
.filters button,.filters .button{padding-top:0;padding-bottom:0;line-height:calc(2.5rem - 2px)}
.filters>input[type=search]{flex:1 1 14rem;max-width:28rem}
.filters>a:not(.button){line-height:2.5rem}
.pager{margin-top:12px;gap:16px}
.actions-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:10px}
.action{display:flex;flex-direction:column;gap:2px;margin:0}
.action button,.action .button{width:100%;text-align:center}
.action.closed button{opacity:.55;cursor:not-allowed}
.why{font-size:.8rem;color:var(--muted);line-height:1.3}
td .action{display:inline-flex;width:auto}
td .action button{width:auto;padding:4px 10px;font-size:.9rem}
td .action .why{max-width:12rem}
td .row{gap:6px}
.row .grow{flex:1;min-width:0}
fieldset.lines{border:1px solid var(--line);border-radius:var(--radius);padding:12px;margin:0;display:flex;flex-direction:column;gap:10px}
/* A Line: the Product, description, quantity, unit, price and rate on one row; the VAT category (in words), its
   exemption code and the notes on the next; the EU hint under them. */
.line{display:grid;grid-template-columns:1.5rem minmax(12rem,1.6fr) minmax(9rem,1.7fr) 5rem 4.5rem 7rem 4.5rem;gap:6px;align-items:end;padding-bottom:8px;border-bottom:1px dashed var(--line)}
.line label{display:flex;flex-direction:column;font-size:.8rem;color:var(--muted);gap:2px;min-width:0}
.line input,.line select{width:100%;max-width:none;padding:6px 8px}
.line .l-cat{grid-column:2}
.line .l-code{grid-column:3}
.line .l-notes{grid-column:4 / -1}
.line .l-product,.line .l-cat{display:flex;flex-direction:column;gap:2px;min-width:0}
.line .l-product>label,.line .l-cat>label{font-size:.8rem;color:var(--muted)}
/* The K-or-AE hint: only while the chosen Client is marked an EU business (picker.tsx), on a Line not K or AE yet. */
.line .eu-hint{display:none;grid-column:2 / -1;margin:0}
form:has(select[name=client_id] option:checked[data-vat=eu-business]) .line:not(:has(.l-cat option:checked:is([value=K],[value=AE]))) .eu-hint{display:block}
.pick-find{display:flex;gap:6px;max-width:36rem}
.pick-find input{flex:1;min-width:0}
.picker select{margin-top:4px}
.line .l-err{grid-column:2 / -1}
.line.bad{border-bottom-color:var(--bad)}
.line-no{color:var(--muted);font-weight:600;padding-bottom:8px}
.totals{background:#f8fafc;border:1px solid var(--line);border-radius:var(--radius);padding:12px}
dl.totals-box{margin:12px 0 0 auto;max-width:26rem;grid-template-columns:1fr auto}
dl.totals-box dd{text-align:right}
table caption{text-align:left;padding:8px 0;font-weight:600}
tr.total th,tr.total td{font-weight:700;border-top:2px solid var(--line)}
.payment-form{margin-top:16px;border-top:1px solid var(--line);padding-top:12px}
h3{font-size:1rem}
textarea{min-height:4rem}
@media (max-width:720px){
 .doc-grid,.grid2,.grid3{grid-template-columns:1fr}
 .line{grid-template-columns:1fr 1fr}
 .line .line-no{grid-column:1 / -1;padding:0}
 .line .l-product,.line .l-desc,.line .l-notes,.line .l-code,.line .l-cat,.line .eu-hint,.line .l-err{grid-column:1 / -1}
 .line .l-code,.line .l-notes,.line .l-err{order:1}
 .big{font-size:1.35rem}
 .chart-wide{display:none}
 .chart-narrow{display:block}
 table.lines-table th:first-child,table.lines-table td:first-child{display:none}
 .actions-grid{grid-template-columns:1fr 1fr}
 .filters label{flex:1 1 9rem;min-width:0}
 .filters input,.filters select{min-width:0;width:100%}
 .grid-filters{display:grid;grid-template-columns:repeat(2,minmax(0,1fr))}
 .grid-filters label:first-child,.grid-filters button{grid-column:1 / -1}
 .grid2,.grid3,.doc-grid{grid-template-columns:minmax(0,1fr)}
 .grid2>*,.grid3>*,.doc-grid>*{min-width:0}
 /* A list table on a phone: each row a small card, its key cell (number or name) on top, every other cell under
    the column's name (data-label), so nothing is cut off or hidden to the side. */
 table.stacked thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
 table.stacked,table.stacked tbody,table.stacked tr,table.stacked td,table.stacked tbody th{display:block;width:100%}
 table.stacked caption{display:block}
 table.stacked tr{padding:6px 0;border-bottom:1px solid var(--line)}
 table.stacked tr:last-child{border-bottom:0}
 table.stacked td,table.stacked tbody th{border:0;padding:2px 10px;text-align:left;overflow-wrap:anywhere}
 table.stacked td[data-label]{position:relative;padding-left:calc(40% + 10px);min-height:1.75rem}
 table.stacked td[data-label]:empty{display:none}
 table.stacked td[data-label]::before{content:attr(data-label);position:absolute;left:10px;width:calc(40% - 12px);line-height:1.5rem;color:var(--muted);font-size:.85rem;font-weight:600;overflow-wrap:normal}
 table.stacked .key{font-weight:600;padding-top:4px;padding-bottom:4px}
 table.stacked td.num,table.stacked th.num{text-align:left}
 table.stacked td .row{padding-top:4px}
 table.stacked tr.total th,table.stacked tr.total td{border-top:0}
 table.stacked tr.total{border-top:2px solid var(--line)}
}
/* profile → apps */
nav.tabs{display:flex;flex-wrap:wrap;gap:4px 16px;margin:0 0 12px;border-bottom:1px solid var(--line)}
nav.tabs a{display:inline-block;padding:6px 0;text-decoration:none;color:var(--muted);border-bottom:3px solid transparent;margin-bottom:-1px}
nav.tabs a[aria-current=page]{color:var(--ink);border-bottom-color:var(--accent)}
label.check{display:flex;gap:8px;align-items:flex-start;font-weight:400;max-width:36rem}
label.check input{margin-top:.3rem;flex:none}
code.id{word-break:break-all}
.actions-row{margin-top:12px}
button.small{padding:4px 10px;font-size:.9rem}
.danger-zone{border-color:#f0b8b3}
textarea#f-redirect_uris{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92rem}
.field.bad textarea{border-color:var(--bad)}
dl.facts.app-facts{margin-bottom:16px}
@media (max-width:720px){
 dl.facts{grid-template-columns:1fr;gap:0}
 dl.facts dd{margin-bottom:6px}
}
`
