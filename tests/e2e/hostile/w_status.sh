# Sourced by hostile.sh (issue 29: util/ writes nothing): the one-line status that redraws
# itself is drawn by the sink report/ supplies (report/stderr_text.c kd_status_to_stderr,
# installed by main.c through util/progress.h), only when stderr is a terminal, and erased
# before the report.
W_A=examples/vector_loads/v1.cu W_B=examples/vector_loads/v2.cu
if command -v script >/dev/null 2>&1; then
    # A terminal (script's pseudo-terminal): the status line is drawn, then erased.
    KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" script -qec \
        "\"$KD\" --n 64K --no-ncu \"$W_A\" \"$W_B\"" /dev/null >"$WORK/w_status_tty.out" 2>&1
    if python3 - "$WORK/w_status_tty.out" <<'PY'; then
import re, sys
t = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
drawn = re.findall(r"\r\x1b\[K\[kerndiff [0-9]+\.[0-9]s\] [^\r\n\x1b]+", t)
report = t.find("v2 is 1.2")
# drawn at least once, the last drawing erased before the report starts
sys.exit(0 if drawn and report > 0 and t.rfind("\r\x1b[K", 0, report) > t.rfind(drawn[-1], 0, report) else 1)
PY
        ok "w_status: on a terminal the status line is drawn by report/'s sink and erased before the report"
    else fail "w_status: status line on a terminal" "$WORK/w_status_tty.out"; fi
fi
# Not a terminal: no status line, no control sequence on stderr.
KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run w_status_pipe 0 -- --n 64K --no-ncu "$W_A" "$W_B"
lacks w_status_pipe err $'\033'
lacks w_status_pipe err '\[kerndiff [0-9.]+s\]'
