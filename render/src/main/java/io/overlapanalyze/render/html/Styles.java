package io.overlapanalyze.render.html;

/**
 * The report's only style sheet, inlined in the page (no network needed to view it). SVG
 * elements are styled by class, so each timeline carries coordinates only.
 */
final class Styles {
    private Styles() {
    }

    static final String CSS = """
            :root{--k:#4e79a7;--c:#59a14f;--x:#e15759;--m:#b07aa1;--f:#9c755f;--t:#f2c14e;--ih:#f2a65a;--il:#c9c9c9;--iu:#ececec;--ink:#222;--muted:#666;--line:#ddd}
            body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0 auto;max-width:1180px;padding:16px 20px 48px}
            h1{font-size:22px;margin:8px 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
            h3{font-size:15px;margin:16px 0 6px}.muted{color:var(--muted)}.verdict{background:#fff7e0;border-left:4px solid var(--t);padding:8px 12px;margin:12px 0}
            table{border-collapse:collapse;margin:6px 0 10px;font-variant-numeric:tabular-nums}th,td{padding:3px 9px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
            th{font-weight:600;background:#f6f6f6}td.l,th.l{text-align:left}tr.partial td{color:var(--muted)}
            /* Every table sits in its own box (.tw) and scrolls there, never the page. Headers and text
               cells wrap at spaces, file paths anywhere, so most tables fit without scrolling at all. */
            .tw{max-width:100%;overflow-x:auto}th,td.l{white-space:normal}td.l{overflow-wrap:break-word}
            td.src{overflow-wrap:anywhere;min-width:14em}table.ranks td:first-child{white-space:nowrap}
            details{margin:6px 0}details.rank>summary{font-weight:600;font-size:15px;cursor:pointer;padding:4px 0}
            details.step{margin-left:12px}details.step>summary{cursor:pointer}
            .legend span{display:inline-block;margin-right:14px}.sw{display:inline-block;width:12px;height:12px;vertical-align:-1px;margin-right:4px;border-radius:2px}
            svg{display:block;margin:4px 0;font:11px system-ui,sans-serif;overflow:visible}
            svg .bg{fill:#f7f7f7}svg .k{fill:var(--k)}svg .c{fill:var(--c)}svg .x{fill:var(--x)}svg .m{fill:var(--m)}svg .f{fill:var(--f)}
            svg .ih{fill:var(--ih)}svg .il{fill:var(--il)}svg .iu{fill:var(--iu)}
            svg .tail{fill:var(--t);fill-opacity:.3;stroke:#d4a017;stroke-width:1}svg .mk line{stroke:#333;stroke-width:1;stroke-dasharray:3 2}svg .mk text{fill:#333}
            svg .lab{fill:#444}svg .ax{stroke:#999}svg .axt{fill:#666}svg .grid{stroke:#eee}
            svg .link rect{fill:#fff;stroke:#333}svg .link text{fill:#222}svg .arrow{fill:none;stroke:#333;stroke-width:1.2}
            svg .bar{fill:var(--t)}svg .line{fill:none;stroke:var(--x);stroke-width:1.5}svg .dot{fill:var(--x)}
            svg .h1{fill:#fff4ea}svg .h2{fill:#facba6}svg .h3{fill:#f8b58b}svg .h4{fill:#f59e72}svg .h5{fill:#f2855d}svg .h6{fill:#ef6a4c}svg .h7{fill:#e04f39}svg .h8{fill:#b8312f}svg .h0{fill:#f3f3f3}
            dl.glossary dt{font-weight:600;margin-top:8px}dl.glossary dd{margin:2px 0 0 18px}
            /* #only-<step id> shows that step's timeline alone: for links and screenshots. */
            body:has(a.focus:target)>:not(#ranks),body:has(a.focus:target) #ranks>:not(details.rank),body:has(a.focus:target) details.rank>:not(a.focus:target+details.step){display:none}
            code{background:#f3f3f3;padding:0 3px;border-radius:3px}
            /* across ranks */
            h4{font-size:14px;margin:12px 0 4px}td.wrap{white-space:normal;min-width:280px}svg .ofs-up{fill:var(--k)}svg .ofs-down{fill:var(--m)}
            .banner{padding:6px 12px;margin:8px 0;border-left:4px solid}p.sev-error{background:#fdecea;border-color:#c62828}p.sev-warning{background:#fff4e0;border-color:#e69500}
            tr.sev-error td:first-child{color:#c62828}tr.sev-warning td:first-child{color:#b36b00}tr.sev-error{background:#fdf3f2}tr.sev-warning{background:#fffaf0}
            .ok{color:#2e7d32}tr.culprit td{font-weight:600;color:#c62828}details.more>summary,details.mismatch-ranks>summary{cursor:pointer;color:var(--muted)}
            /* beyond DDP */
            details.beyond{margin:8px 0 8px 12px}details.beyond>summary{cursor:pointer;font-weight:600}h4.bx{margin:10px 0 2px}
            p.na{margin:2px 0}ul.evidence{margin:2px 0;padding-left:20px}svg .sparkline{fill:none;stroke:var(--k);stroke-width:1.5}
            /* findings: what to change, first on the page */
            ol.findings{padding-left:22px}ol.findings li{margin:6px 0}ol.findings p{margin:1px 0}
            ol.findings p.evidence{color:var(--muted);overflow-wrap:anywhere}ol.findings p.action{font-weight:500}
            /* responsive, 390 to 2,560 px: every chart scales to the page (viewBox), long words wrap, the
               page never scrolls sideways (tables scroll in their .tw box) */
            body{overflow-wrap:break-word}svg{max-width:100%;height:auto}header p{overflow-wrap:anywhere}
            @media (max-width:640px){body{padding:8px 10px 32px}h1{font-size:19px}h2{font-size:16px}th,td{padding:3px 6px}details.step,details.beyond{margin-left:4px}}
            /* the job at a glance */
            p.job-line{margin:4px 0}p.job-error{margin:6px 0}
            svg.ranksdist{font-size:13px}svg.ranksdist.narrow{font-size:11px;display:none}@media (max-width:640px){svg.ranksdist.wide{display:none}svg.ranksdist.narrow{display:block}}svg .pb{fill:var(--k)}svg .pb.st{fill:#f28e2b}svg .pb.er{fill:#c62828}svg .ib{fill:#a8a8a8}svg .xb{fill:var(--x)}
            svg .na{fill:#e3e3e3}svg .mark{fill:#c62828}svg .mkl{fill:#c62828;font-size:11px}svg .mkc{fill:#c62828}svg .ref{stroke:#222;stroke-width:1;stroke-dasharray:5 3}
            svg .refl{fill:#222}svg .val{fill:#333;font-size:10px}svg .cv{font-size:10px;fill:#222}svg .cv.dk{fill:#fff}
            table.job-ranks tr.sev-error td{color:#c62828}table.job-ranks tr.straggler td{color:#b36b00}
            """;
}
