# Sourced by e2e checks: fake_capture_dir DIR makes DIR a harness folder (KERNDIFF_HARNESS_DIR)
# with the real programs beside $KD and the test double tests/fakes/fake_triton_capture.py as
# its kerndiff-triton.py (which hands every command but `capture` to $KD_REAL_HELPER).
fake_capture_dir() {
    mkdir -p "$1"
    local f
    for f in "$(dirname "$KD")"/kerndiff-harness "$(dirname "$KD")"/kerndiff-sim-harness "$(dirname "$KD")"/libkerndiff-inject.so; do
        [ -e "$f" ] && ln -sf "$f" "$1/"
    done
    cp tests/fakes/fake_triton_capture.py "$1/kerndiff-triton.py"
    chmod +x "$1/kerndiff-triton.py"
}
