# Launches captured from a program and replayed (issue 30 items 1-2): checks in
# tests/e2e/capture/*.sh.
for capture_file in tests/e2e/capture/*.sh; do
    [ -e "$capture_file" ] || continue
    source "$capture_file"
done
