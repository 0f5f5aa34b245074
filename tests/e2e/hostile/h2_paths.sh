# A path with a quote (' and ") builds and compares (it was exit 7, "tool missing"), and a
# quoted include beside it still resolves; so does a folder with those characters.
h2_q="$WORK/h2 it's \"quoted\""
mkdir -p "$h2_q"
cp "$A" "$h2_q/v1 'a\".cu"
{ echo '#include "h2 helper.h"'; cat "$B"; } >"$h2_q/v2 'b\".cu"
echo '#define H2_HELPER_SEEN 1' >"$h2_q/h2 helper.h"
run h2_quote_path 0 -- --no-cache "$h2_q/v1 'a\".cu" "$h2_q/v2 'b\".cu"
has h2_quote_path out "^  v2: .*v2 'b\"\.cu  \[saxpy"
lacks h2_quote_path err 'quote, backslash or newline'
# a backslash in the name too
cp "$A" "$h2_q/back\\slash.cu"
run h2_backslash_path 0 -- --no-cache "$h2_q/back\\slash.cu" "$B"
has h2_backslash_path out '^  v1: .*back\\slash\.cu  \[saxpy'

# One unit per table of times: 941ns beside 1.37us is written 0.94us beside 1.37us.
KERNDIFF_SIMULATE="median=941ns,seed=1;median=1.37us,seed=2" run h2_units 0 -- --n 64K "$A" "$B"
has h2_units out '^  median +0\.9[0-9]+us +1\.3[0-9]+us'
lacks h2_units out '^  (min|p20|median|p80|p95|mean|stdev|IQR) .*[0-9]ns'
KERNDIFF_SIMULATE="median=941ns,seed=1;median=1.37us,seed=2" run h2_units_md 0 -- --n 64K --markdown "$A" "$B"
has h2_units_md out '^\| median \| 0\.9[0-9]+us \| 1\.3[0-9]+us \|$'
lacks h2_units_md out '^\| (min|median|p95|mean|stdev) \|.*[0-9]ns'
