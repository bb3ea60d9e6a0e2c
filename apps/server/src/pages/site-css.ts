/** The one stylesheet of the pages, served from /assets/site.css (no inline styles: the CSP allows only this). */
export const SITE_CSS = `:root{--text:#1b1b1b;--muted:#4a4a4a;--link:#0b4fb3;--line:#c9c9c9;--bg:#fff;--band:#f3f5f8;--focus:#b34700}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:var(--text);background:var(--bg)}
a{color:var(--link)}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem}
.skip:focus{left:.5rem}
header,footer{background:var(--band);border-bottom:1px solid var(--line)}
footer{border-top:1px solid var(--line);border-bottom:0;margin-top:3rem}
.bar{max-width:60rem;margin:0 auto;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center}
.brand{font-weight:700;text-decoration:none;color:var(--text)}
nav ul,.inline{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
main{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.75rem;line-height:1.25;margin:1rem 0 .5rem;overflow-wrap:anywhere}
h2{font-size:1.3rem;margin:2rem 0 .5rem}
h3{font-size:1.05rem;margin:1rem 0 .25rem}
.muted{color:var(--muted)}
form.search{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;background:var(--band);padding:1rem;border-radius:.5rem;margin:1rem 0}
form.search div{display:flex;flex-direction:column;min-width:12rem;flex:1}
label{font-weight:600}
input{font:inherit;padding:.5rem;border:1px solid #767676;border-radius:.25rem;min-height:2.75rem}
textarea{font:inherit;padding:.5rem;border:1px solid #767676;border-radius:.25rem;resize:vertical;max-width:100%}
button,a.button{font:inherit;padding:.5rem 1rem;min-height:2.75rem;border:0;border-radius:.25rem;background:#0b4fb3;color:#fff;cursor:pointer}
a.button{display:inline-flex;align-items:center;text-decoration:none}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;padding:0}
.actions a{display:inline-block;padding:.5rem .9rem;border:1px solid var(--link);border-radius:.25rem;text-decoration:none;min-height:2.75rem;overflow-wrap:anywhere}
.results{list-style:none;padding:0}
.results li{border-bottom:1px solid var(--line);padding:.75rem 0}
.results a{font-weight:600}
.tier{display:inline-block;font-size:.875rem;padding:0 .4rem;border:1px solid var(--line);border-radius:.25rem}
.tier.paid{border-color:#8a5a00;color:#6b4500}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}
table.claims tbody th{font-weight:600;background:none}
table.claims td.value{overflow-wrap:anywhere}
table.claims .num,table.claims .date{white-space:nowrap}
table.hours{width:auto;min-width:16rem}
table.hours tr.today{font-weight:700;background:var(--band)}
.today-mark{font-weight:700}
.hours-state{font-size:1.1rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--band);padding:.75rem;border-radius:.25rem}
code{overflow-wrap:anywhere}
.hint{font-size:.875rem;color:var(--muted)}
form.search div.check{flex-direction:row;align-items:center;gap:.5rem;min-width:auto;flex:0 0 auto;min-height:2.75rem}
input[type=checkbox]{width:1.25rem;height:1.25rem;min-height:0;margin:0}
button.secondary{background:#fff;color:var(--link);border:1px solid var(--link);margin-top:.5rem;align-self:flex-start}
[hidden]{display:none!important}
th{background:var(--band)}
.pager{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;padding:0}
.pager a,.pager span{display:inline-block;padding:.35rem .75rem;border:1px solid var(--line);border-radius:.25rem}
.pager [aria-current]{font-weight:700;border-color:var(--text)}
dt{font-weight:600;margin-top:.75rem}
dd{margin-left:0}
form.stack{display:flex;flex-direction:column;gap:.75rem;max-width:32rem;background:var(--band);padding:1rem;border-radius:.5rem;margin:1rem 0}
form.stack div{display:flex;flex-direction:column}
form.stack button{align-self:flex-start}
.inline-form{margin:.5rem 0}
.keys{list-style:none;padding:0}
.keys>li{border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;margin:0 0 .75rem}
.keys h3{margin-top:0;overflow-wrap:anywhere}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.15rem 1rem;margin:.5rem 0}
dl.facts dt{margin-top:0}
.notice{border-left:4px solid var(--link);background:var(--band);padding:.5rem .75rem}
.notice.error{border-left-color:#a4001d}
.new-key{border:3px solid #8a5a00;background:#fff8e6;padding:1rem;border-radius:.5rem;margin:1.5rem 0}
.new-key h2{margin-top:0}
.new-key code{font-size:1.1rem;word-break:break-all}
button.danger{background:#a4001d}
.agent{overflow-wrap:anywhere;margin:.25rem 0}
@media (max-width:40rem){
  table.claims thead{position:absolute;left:-9999px}
  table.claims,table.claims caption,table.claims tbody,table.claims tr,table.claims td,table.claims tbody th{display:block;width:100%}
  table.claims caption{text-align:left}
  table.claims tr{border:1px solid var(--line);margin:0 0 .75rem;padding:.25rem 0}
  table.claims td,table.claims tbody th{border:0;padding:.15rem .5rem}
  table.claims td::before{content:attr(data-label) ": ";font-weight:600}
}`;
