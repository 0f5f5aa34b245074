# h3: `--at ..` compared HEAD with itself, silently; an empty side of a range is refused,
# naming the side (issue 28).
H3_REPO="$WORK/h3-repo"
mkdir -p "$H3_REPO" && cp "$A" "$H3_REPO/k.cu"
(cd "$H3_REPO" && git init -q && git add k.cu && git -c user.email=t@t -c user.name=t commit -qm one) >/dev/null 2>&1
run h3_at_dots 3 -- --at .. "$H3_REPO/k.cu"
has h3_at_dots err "^kerndiff: --at '\.\.': the range names no revision before '\.\.' \(v1\) nor after it \(v2\): write --at A\.\.B"
run h3_at_no_to 3 -- --at HEAD.. "$H3_REPO/k.cu"
has h3_at_no_to err "--at 'HEAD\.\.': the range names no revision after '\.\.' \(v2\)"
run h3_at_no_from 3 -- --at ..HEAD "$H3_REPO/k.cu"
has h3_at_no_from err "--at '\.\.HEAD': the range names no revision before '\.\.' \(v1\)"
run h3_at_range 0 -- --at HEAD..HEAD "$H3_REPO/k.cu"
has h3_at_range out 'identical'
