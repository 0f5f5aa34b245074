/* html_page.c — the shell and the pieces every kerndiff HTML page shares (html_page.h). */
#include "report/html_page.h"

#include "report/svg.h"

/* Light by default, dark when the reader's system asks; v1 blue and v2 orange stay apart
 * for the common colour-vision deficiencies, and v2's marks are squares besides. */
static const char style[] =
    ":root{color-scheme:light dark;--fg:#1f2328;--bg:#fff;--muted:#59636e;--grid:#d1d9e0;--frame:#818b98;"
    "--v1:#0969da;--v2:#bc4c00;--good:#1a7f37;--bad:#d1242f;--band:rgba(9,105,218,.18);--panel:#f6f8fa}\n"
    "@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--muted:#9198a1;--grid:#30363d;"
    "--frame:#656c76;--v1:#58a6ff;--v2:#f0883e;--good:#3fb950;--bad:#f85149;--band:rgba(88,166,255,.22);"
    "--panel:#161b22}}\n"
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);background:var(--bg);margin:0}\n"
    "main{max-width:980px;margin:0 auto;padding:12px 24px 48px}\n"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid var(--grid)}\n"
    ".muted,figcaption{color:var(--muted)}.good{color:var(--good)}.bad{color:var(--bad)}\n"
    ".verdict{font-size:1.2em;font-weight:600}.warn{border-left:4px solid var(--bad);padding:4px 10px;background:var(--panel)}\n"
    "pre{background:var(--panel);padding:8px 12px;overflow-x:auto;font-size:13px}\n"
    "table{border-collapse:collapse;margin:8px 0;font-size:14px}th,td{padding:3px 10px;border-bottom:1px solid var(--grid);"
    "text-align:right}th:first-child,td:first-child{text-align:left}td.code{font-family:ui-monospace,monospace}\n"
    "td:not(.code){white-space:nowrap}.scroll{overflow-x:auto}\n"
    "tr.group th{text-align:left;padding-top:10px}details{margin:8px 0}summary{cursor:pointer;font-weight:600}\n"
    "figure{margin:18px 0}figcaption{font-size:13px;max-width:760px}\n"
    "svg.chart{width:100%;height:auto;max-width:760px;display:block}\n"
    "svg text{fill:var(--fg);font:12px system-ui,sans-serif}svg text.tick{fill:var(--muted)}svg text.label{font-weight:600}\n"
    ".grid{stroke:var(--grid)}.frame{fill:none;stroke:var(--frame)}\n"
    ".v1{fill:var(--v1);stroke:var(--v1)}.v2{fill:var(--v2);stroke:var(--v2)}\n"
    ".bar{fill-opacity:.55;stroke-width:.5}.pt{fill-opacity:.75;stroke:none}.median{stroke-width:2;stroke-dasharray:6 3}\n"
    ".line{fill:none;stroke-width:2}.clipped{fill:none;stroke-width:1.5}.throttled{fill:none;stroke:var(--bad);stroke-width:1.5}\n"
    ".reference{stroke:var(--frame);stroke-dasharray:4 3}.ci{fill:var(--band);stroke:var(--v1)}.band{fill:var(--band)}\n"
    ".floor{fill:var(--grid);fill-opacity:.6}.estimate{fill:var(--fg)}.ceiling{stroke:var(--frame);stroke-width:2}\n"
    ".whisker{stroke:var(--fg);stroke-width:1.5}\n"
    /* Regions on a timeline: Okabe and Ito's seven hues (told apart with the common
     * colour-vision deficiencies, on light and dark) and a grey; outlined so that touching
     * slices stay two. */
    ".slice{stroke:var(--bg);stroke-width:.6}.r0{fill:#0072b2}.r1{fill:#e69f00}.r2{fill:#009e73}.r3{fill:#cc79a7}"
    ".r4{fill:#56b4e9}.r5{fill:#d55e00}.r6{fill:#f0e442}.r7{fill:#8c8c8c}\n";

const char *const kd_html_side_class[2] = {"v1", "v2"};

void kd_html_begin(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
    kd_xml_text(out, title);
    fprintf(out, "</title>\n<style>\n%s</style></head>\n<body><main>\n", style);
    kd_html_say_text(out, "h1", NULL, title);
}

void kd_html_end(FILE *out)
{
    fputs("<p class=\"muted\">Made by kerndiff " KD_VERSION ". Every chart is inline SVG; the page fetches nothing.</p>\n"
          "</main></body></html>\n", out);
}

void kd_html_say(FILE *out, const char *tag, const char *cls, kd_strbuf *text)
{
    fprintf(out, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    kd_xml_text(out, kd_sb_str(text));
    fprintf(out, "</%s>\n", tag);
    kd_sb_free(text);
}

void kd_html_say_text(FILE *out, const char *tag, const char *cls, const char *text)
{
    kd_strbuf sb = {0};
    kd_sb_puts(&sb, text);
    kd_html_say(out, tag, cls, &sb);
}

void kd_html_cell(FILE *out, const char *tag, const char *text)
{
    fprintf(out, "<%s>", tag);
    kd_xml_text(out, text);
    fprintf(out, "</%s>", tag);
}

void kd_html_figure_start(FILE *out) { fputs("<figure>\n", out); }

void kd_html_figure_end(FILE *out, kd_strbuf *caption)
{
    kd_html_say(out, "figcaption", NULL, caption);
    fputs("</figure>\n", out);
}

void kd_html_axis_of_time(kd_axis *a, const kd_time_axis *t, char *label, size_t n)
{
    double lo = t->lo, hi = t->hi;
    kd_scale scale = t->scale;
    const char *what = t->what;
    static const struct {
        double ns;
        const char *name;
    } units[] = {{1, "ns"}, {1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}};
    size_t u = 0;
    while (u < 3 && hi >= units[u + 1].ns)
        u++;
    snprintf(label, n, "%s (%s)", what, units[u].name);
    *a = (kd_axis){.label = label, .lo = lo, .hi = hi, .scale = scale, .unit = units[u].ns};
}
