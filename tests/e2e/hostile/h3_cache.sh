# h3: cache entries bound to their key (issue 28, item 3). Two entries swapped between their
# keys were trusted ("registers 22 -> 12" where the truth is 12 -> 22); a file where an entry
# goes was "rebuilt and replaced" on every run and never replaced.
H3_CACHE="$WORK/h3-cache"
XDG_CACHE_HOME="$H3_CACHE" run h3_cache_fill 0 -- "$A" "$B"
has h3_cache_fill out '^  registers/thread +12 +22 '
h3_entries=("$H3_CACHE"/kerndiff/builds/*)
if [ "${#h3_entries[@]}" -eq 2 ] && head -2 "${h3_entries[0]}/manifest" | grep -q "^key $(basename "${h3_entries[0]}")$"; then
    ok "h3_cache: two entries, each manifest names its own key"; else fail "h3_cache: entries or manifest key" "${h3_entries[0]}/manifest"; fi
mv "${h3_entries[0]}" "$H3_CACHE/swap" && mv "${h3_entries[1]}" "${h3_entries[0]}" && mv "$H3_CACHE/swap" "${h3_entries[1]}"
XDG_CACHE_HOME="$H3_CACHE" run h3_cache_swapped 0 -- "$A" "$B"
has h3_cache_swapped out '^  registers/thread +12 +22 '
has h3_cache_swapped out '^  note: v1: cache entry [0-9a-f]{12} was damaged \(its manifest names another key, [0-9a-f]{12}: it holds another build\): rebuilt and replaced'
lacks h3_cache_swapped out '\(cached build\)'
# Said once: the next run trusts the rebuilt entries.
XDG_CACHE_HOME="$H3_CACHE" run h3_cache_after_swap 0 -- "$A" "$B"
has h3_cache_after_swap out '^  v1: .*\(cached build\)'
lacks h3_cache_after_swap out 'note: v[12]: cache entry'
has h3_cache_after_swap out '^  registers/thread +12 +22 '
# A file, then a link, where an entry goes: replaced by a folder, once; the link's target stays.
h3_entry="${h3_entries[0]}"
rm -rf "$h3_entry" && echo junk >"$h3_entry"
XDG_CACHE_HOME="$H3_CACHE" run h3_cache_file 0 -- "$A" "$B"
has h3_cache_file out 'cache entry [0-9a-f]{12} was damaged \(it is not a folder\): rebuilt and replaced'
if [ -d "$h3_entry" ] && [ ! -L "$h3_entry" ]; then ok "h3_cache_file: the file was replaced by an entry"; else
    fail "h3_cache_file: the file is still there"; fi
XDG_CACHE_HOME="$H3_CACHE" run h3_cache_file_again 0 -- "$A" "$B"
lacks h3_cache_file_again out 'cache entry'
mkdir -p "$WORK/h3_elsewhere" && touch "$WORK/h3_elsewhere/keep"
rm -rf "$h3_entry" && ln -s "$WORK/h3_elsewhere" "$h3_entry"
XDG_CACHE_HOME="$H3_CACHE" run h3_cache_link 0 -- "$A" "$B"
has h3_cache_link out 'cache entry [0-9a-f]{12} was damaged \(it is not a folder\)'
if [ -d "$h3_entry" ] && [ ! -L "$h3_entry" ] && [ -e "$WORK/h3_elsewhere/keep" ]; then
    ok "h3_cache_link: the link was replaced, its target left alone"; else fail "h3_cache_link: link or target"; fi
# A manifest in the old format (no key): not trusted, rebuilt once.
printf 'kernel.ptx 1 %064d\n' 0 >"$h3_entry/manifest"
XDG_CACHE_HOME="$H3_CACHE" run h3_cache_old 0 -- "$A" "$B"
has h3_cache_old out 'was damaged \(its manifest is not in this kerndiff.s format \(no key: made by an older kerndiff\)\)'
