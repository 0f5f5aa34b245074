# git runs with the repository's fsmonitor, hooks and pager off (issue 28 item 7): a
# repository whose core.fsmonitor is a command, compared in git mode, never runs it.
h2_repo="$WORK/h2_fsmonitor"
h2_mark="$WORK/h2_fsmonitor_ran"
mkdir -p "$h2_repo"
git -C "$h2_repo" init -q .
cp "$A" "$h2_repo/k.cu"
git -C "$h2_repo" add k.cu
git -C "$h2_repo" -c user.email=t@t -c user.name=t commit -qm one
cp "$B" "$h2_repo/k.cu"
printf '#!/bin/sh\ntouch "%s"\n' "$h2_mark" >"$WORK/h2_fsmonitor.sh"
chmod +x "$WORK/h2_fsmonitor.sh"
git -C "$h2_repo" config core.fsmonitor "$WORK/h2_fsmonitor.sh"
git -C "$h2_repo" config core.pager false
rm -f "$h2_mark"
run h2_git_fsmonitor 0 -- "$h2_repo/k.cu"
has h2_git_fsmonitor out '^  v1: .*k\.cu @ HEAD'
if [ ! -e "$h2_mark" ]; then ok "h2_git_fsmonitor: the repository's fsmonitor command did not run"; else
    fail "h2_git_fsmonitor: core.fsmonitor ran"; fi
# The check can fail: git itself runs the command for the same call.
git -C "$h2_repo" ls-files >/dev/null 2>&1
if [ -e "$h2_mark" ]; then ok "h2_git_fsmonitor: (git alone runs it, so the check above means something)"; else
    fail "h2_git_fsmonitor: git did not run the fsmonitor command even alone: the check proves nothing"; fi
