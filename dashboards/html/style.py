"""The pages' style sheets (screen and paper) and the script that draws their charts."""

from __future__ import annotations

from dashboards.html.theme import FONT

# --------------------------------------------------------------------------- page

CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:%(font)s;color:#1f2937;background:#f3f4f6;line-height:1.45}
a{color:#1d4ed8}
header.top{background:#0f2942;color:#fff;padding:14px 24px 0}
header.top .brand{font-size:13px;letter-spacing:.06em;text-transform:uppercase;opacity:.8}
header.top h1{margin:2px 0 4px;font-size:26px;font-weight:650}
header.top .sub{opacity:.9;font-size:14px;margin-bottom:10px}
nav.menu{display:flex;gap:2px;flex-wrap:wrap}
nav.menu a{color:#dbeafe;text-decoration:none;padding:8px 14px;border-radius:6px 6px 0 0;font-size:14px}
nav.menu a.on{background:#f3f4f6;color:#0f2942;font-weight:600}
nav.menu a:hover:not(.on){background:rgba(255,255,255,.1)}
main{max-width:1240px;margin:0 auto;padding:18px 24px 40px}
section{background:#fff;border:1px solid #e5e7eb;border-radius:10px;padding:16px 20px;margin:0 0 18px}
h2{margin:0 0 8px;font-size:20px;color:#0f2942}
h3{margin:14px 0 6px;font-size:16px}
p.lead{margin:0 0 12px;color:#4b5563;font-size:14px}
.kpis{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:12px;margin:0 0 18px}
.kpi{display:block;background:#fff;border:1px solid #e5e7eb;border-left:5px solid #2563eb;border-radius:8px;\
padding:10px 14px;text-decoration:none;color:inherit}
.kpi-bad{border-left-color:#dc2626}.kpi-warn{border-left-color:#d97706}.kpi-good{border-left-color:#059669}
.kpi-value{font-size:26px;font-weight:700;line-height:1.1}
.kpi-label{font-size:13px;color:#374151;font-weight:600}
.kpi-detail{font-size:12px;color:#6b7280}
a.kpi:hover{background:#f8fafc}
.note{border-radius:8px;padding:10px 14px;margin:8px 0;font-size:14px;background:#eff6ff;\
border:1px solid #bfdbfe}
.note-empty{background:#f9fafb;border:1px dashed #9ca3af;color:#374151}
.note-warn{background:#fffbeb;border-color:#fcd34d}
.note-bad{background:#fef2f2;border-color:#fca5a5}
.table-wrap{overflow:auto;max-height:560px;border:1px solid #e5e7eb;border-radius:8px;margin:6px 0}
.table-wrap.whole{overflow:visible;max-height:none}
table{border-collapse:collapse;width:100%%;font-size:13px}
caption{text-align:left;font-weight:600;padding:6px 8px}
th{position:sticky;top:0;background:#f1f5f9;text-align:left;padding:6px 8px;border-bottom:1px solid #cbd5e1;\
z-index:1;vertical-align:bottom}
th.num{white-space:normal}
td{padding:5px 8px;border-bottom:1px solid #eef2f7;vertical-align:top}
table.worklist td{padding:3px 8px;line-height:1.35}
table.worklist .muted{font-size:12px}
.act-toggle{display:none}
label.act-more{cursor:pointer;color:#1d4ed8;font-size:12.5px}
@media screen{.act-toggle:not(:checked)~.act-rest{display:none}
.act-toggle:checked~.act .act-more{display:none}}
tbody tr:nth-child(even){background:#fafbfc}
tbody tr:target{outline:2px solid #2563eb}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.nowrap{white-space:nowrap}
tr.row-bad td:first-child{border-left:4px solid #dc2626}
tr.row-warn td:first-child{border-left:4px solid #d97706}
tr.row-good td:first-child{border-left:4px solid #059669}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;\
background:#e5e7eb;color:#374151;white-space:nowrap}
.badge-bad{background:#fee2e2;color:#991b1b}.badge-warn{background:#fef3c7;color:#92400e}
.badge-good{background:#d1fae5;color:#065f46}.badge-info{background:#dbeafe;color:#1e40af}
figure.chart-box{margin:8px 0 16px}
h3.chart-title{margin:10px 0 2px}
.chart{width:100%%;position:relative}
.chart-wait{position:absolute;top:40%%;left:0;right:0;text-align:center;color:#9ca3af;font-size:13px}
.chart-caption{margin:2px 0 0;font-size:12.5px;color:#4b5563}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:18px}
@media (max-width:900px){.cols{grid-template-columns:1fr}}
.toc{display:flex;flex-wrap:wrap;gap:6px;margin:6px 0 0}
.toc a{font-size:13px;padding:3px 9px;border:1px solid #cbd5e1;border-radius:14px;text-decoration:none;\
color:#1f2937;background:#fff}
.toc a.bad{border-color:#fca5a5;background:#fef2f2}
.entity-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:10px}
.entity-head h2{margin:0}
.facts{color:#4b5563;font-size:13.5px;margin:4px 0 6px}
code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px;background:#f3f4f6;padding:0 3px;\
border-radius:3px}
.raw{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px;white-space:pre-wrap;\
word-break:break-all;max-width:520px}
footer{max-width:1240px;margin:0 auto;padding:0 24px 30px;color:#6b7280;font-size:12.5px}
.print-only{display:none}
table.wrap-head th{white-space:normal;vertical-align:bottom;min-width:6em}
.law{font-size:14px;color:#4b5563;margin:0 0 8px}
details.rule,details.more{display:inline}
details.rule summary,details.more summary{cursor:pointer;color:#1d4ed8;display:inline}
details.rule[open],details.more[open]{display:block}
details.rule .full{display:block;font-size:12.5px;color:#374151;margin:2px 0 4px;max-width:70ch}
.who{color:#374151}
.muted{color:#6b7280}
sup.rule-ref{font-size:10px;margin-left:2px;line-height:0}
span.cite{white-space:nowrap}
.rule-notes{font-size:12.5px;color:#374151;margin:10px 0 0;border-top:1px solid #e5e7eb;padding-top:6px}
.rule-notes h4{margin:0 0 4px;font-size:13px}
.rule-notes ol{margin:0;padding-left:26px}
.rule-notes li:target{background:#eff6ff}
.rule-notes li.shared{list-style:none;margin-left:-18px}
tr.detail td{border-top:0;padding-top:0;color:#374151;font-size:12.5px}
.legend{font-size:13px;margin:6px 0}
.legend dt{font-weight:600;float:left;clear:left;margin-right:6px}
.legend dd{margin:0 0 2px}
main>section{content-visibility:auto;contain-intrinsic-size:auto 900px}
""" % {"font": FONT}

# Paper: every row of every table, headers repeated, no row split across pages, and on each
# page the town, the page's title, the as-of day (the @page margin boxes of ``page``) and its number.
PRINT_WIDTH_PX = 940  # charts are redrawn this wide for US Letter landscape before printing
PRINT_CSS = """
@page{size:letter landscape;margin:0.6in 0.45in 0.55in;
  @bottom-right{content:"Page " counter(page) " of " counter(pages);font:9px %(font)s;color:#333}}
@media print{
  html,body{background:#fff}
  body{font-size:11px;color:#000}
  header.top{background:#fff;color:#000;padding:0 0 4px;border-bottom:1.5px solid #000;margin-bottom:8px}
  header.top .brand,header.top .sub{opacity:1}
  header.top h1{font-size:20px}
  nav.menu,.toc,.chart-wait,.no-print,.modebar-container{display:none!important}
  .entity-head,.facts,h3.reason{break-after:avoid;page-break-after:avoid}
  .print-only{display:block}
  main{max-width:none;margin:0;padding:0}
  section{border:0;border-radius:0;padding:0;margin:0 0 14px;break-inside:auto;background:#fff}
  h2,h3,h3.chart-title{break-after:avoid;page-break-after:avoid}
  .table-wrap{overflow:visible!important;max-height:none!important;border:0;border-radius:0}
  table{font-size:10px}
  thead{display:table-header-group}
  tfoot{display:table-footer-group}
  th{position:static;background:#e5e7eb!important;-webkit-print-color-adjust:exact;print-color-adjust:exact;
     white-space:normal}
  th.num{white-space:normal}
  tr,td,th{break-inside:avoid;page-break-inside:avoid}
  tbody tr:nth-child(even){background:#fff}
  figure.chart-box{break-inside:avoid;page-break-inside:avoid;overflow:hidden}
  figure.chart-small{margin:2px 0 6px}
  section.user,section.site{break-inside:avoid;page-break-inside:avoid}
  main>section{content-visibility:visible;contain-intrinsic-size:none}
  h3.chart-title{font-size:12px;margin:4px 0 0}
  figure.chart-small .chart{min-height:0!important}
  figure.chart-small .chart-caption,figure.chart-small h3.chart-title{display:none}
  .chart{max-width:100%%}
  td{padding:2px 5px;line-height:1.3}
  th{padding:3px 5px}
  tbody.pair{break-inside:avoid;page-break-inside:avoid}
  tr.detail td{font-size:9.5px;padding-bottom:3px}
  .rule-notes{font-size:9.5px;break-inside:auto}
  .rule-notes li{break-inside:avoid}
  p.lead{font-size:11px;margin:0 0 6px}
  h2{font-size:16px}
  .no-print,.no-print *{display:none!important}
  .badge{font-size:9.5px;padding:0 5px}
  .note{padding:4px 8px;margin:4px 0;font-size:10.5px}
  .entity-head h2{font-size:14px}.facts{font-size:10.5px;margin:2px 0}
  table.calendar td{font-size:8.5px!important;padding:1px 2px}
  table.calendar td br{display:none}
  table.calendar td strong::after{content:" "}
  .kpi-label{font-size:10.5px}.kpi-detail{font-size:9.5px}
  .kpis{grid-template-columns:repeat(6,1fr);gap:6px}
  .kpi{padding:4px 8px;border-width:1px 1px 1px 4px}
  .kpi-value{font-size:17px}
  .cols{grid-template-columns:1fr}
  a{color:#000;text-decoration:none}
  .note{break-inside:avoid}
  footer{padding:0;color:#333}
}
""" % {"font": FONT}

# Draws each chart when it comes near the viewport (so a long page opens at
# once); window.outfallRenderAll() draws every chart (used before printing and
# by the browser test). <html data-charts-total / data-charts-rendered> count them;
# data-first-chart-ms / data-all-charts-ms are when the first / last was drawn (ms after navigation).
JS = """
(function(){
  var root=document.documentElement;
  var divs=Array.prototype.slice.call(document.querySelectorAll('.chart[data-fig]'));
  root.setAttribute('data-charts-total', String(divs.length));
  root.setAttribute('data-charts-rendered', '0');
  var rendered=0;
  if(divs.length && typeof Plotly==='undefined'){
    divs.forEach(function(d){
      d.innerHTML='<p class="note note-bad">'
        + 'The chart library plotly.min.js was not found beside this page.</p>';
    });
    throw new Error('plotly.min.js is missing beside this page');
  }
  var template=JSON.parse(document.getElementById('outfall-template').textContent);
  function draw(div, width){
    if(div._outfall){return div._outfall;}
    var t0=performance.now();
    var spec=JSON.parse(document.getElementById(div.getAttribute('data-fig')).textContent);
    spec.layout.template=template;
    if(width){spec.layout.width=width; spec.layout.autosize=false;}
    div.innerHTML='';
    div._outfall=Plotly.newPlot(div, spec.data, spec.layout, spec.config).then(function(){
      div.setAttribute('data-draw-ms', String(Math.round(performance.now()-t0)));
      if(spec.clickAnchor){
        div.on('plotly_click', function(ev){
          var p=ev && ev.points && ev.points[0]; var cd=p && p.customdata;
          var key=Array.isArray(cd)?cd[0]:cd;
          if(key!==undefined && key!==null){location.hash=spec.clickAnchor+String(key);}
        });
      }
      div.setAttribute('data-rendered','1');
      rendered+=1; root.setAttribute('data-charts-rendered', String(rendered));
      var now=String(Math.round(performance.now()));
      if(rendered===1){root.setAttribute('data-first-chart-ms', now);}
      if(rendered===divs.length){root.setAttribute('data-all-charts-ms', now);}
    });
    return div._outfall;
  }
  // one chart per task, so the page stays responsive while the rest are drawn
  window.outfallRenderAll=function(){
    return divs.reduce(function(p, d){
      return p.then(function(){return new Promise(function(r){setTimeout(r, 0);});})
        .then(function(){return draw(d);});
    }, Promise.resolve());
  };
  if('IntersectionObserver' in window){
    var io=new IntersectionObserver(function(entries){
      entries.forEach(function(e){if(e.isIntersecting){io.unobserve(e.target);draw(e.target);}});
    },{rootMargin:'300px 0px'});
    divs.forEach(function(d){io.observe(d);});
  } else { window.outfallRenderAll(); }
  // Paper: every chart drawn, as wide as the printed page; back to the window's width after.
  var printWidth=+(root.getAttribute('data-print-width')||0);
  function onPaper(div){return !div.closest('.no-print');}
  function fit(div, width){  // Plotly draws a relayout at once: the print dialog sees the new width
    var tall=+(div.getAttribute('data-print-height')||0);
    var paper=JSON.parse(div.getAttribute('data-print-layout')||'{}');
    var first=div.getAttribute('data-rendered')!=='1';
    var drawn=first ? draw(div, width) : Promise.resolve();
    return Promise.resolve(drawn).then(function(){
      if(width){  // on paper: as wide as the page, and as tall and plain as the page says
        var size=Object.assign({width: width, autosize: false}, paper);
        if(tall){size.height=tall;}
        return Plotly.relayout(div, size);
      }
      if(first){return null;}
      if(tall || Object.keys(paper).length){  // back as it was drawn on screen
        var spec=JSON.parse(document.getElementById(div.getAttribute('data-fig')).textContent);
        spec.layout.template=template;
        return Plotly.react(div, spec.data, spec.layout, spec.config);
      }
      return Plotly.relayout(div, {autosize: true, width: null});
    });
  }
  window.outfallPrepareForPrint=function(){
    return divs.filter(onPaper).reduce(function(p, d){return p.then(function(){return fit(d, printWidth);});},
                                       Promise.resolve());
  };
  window.addEventListener('beforeprint', function(){
    divs.filter(onPaper).forEach(function(d){fit(d, printWidth);});
  });
  window.addEventListener('afterprint', function(){divs.forEach(function(d){if(d._outfall){fit(d, 0);}});});
})();
"""
