#!/usr/bin/env bash
# Lays out the corpus of issue 45 ("kernels in libraries"): for each row of corpus.tsv, the
# project's whole tree at the pinned commit in DEST/<id>/ (so the kernel file is
# DEST/<id>/<path>, beside the headers, modules and tests it needs), made a git repository of
# its own with one commit (its git top level is the project's root, as in a checkout: kerndiff
# takes the project's root, where it looks for callers, from git). Nothing from the corpus is
# built, imported or run here: git writes files, that is all.
#
#   tests/corpus/fetch.sh [--mirror DIR] [--dest DIR] [ID...]
#
#   --mirror DIR  take each project from a local bare git directory DIR/OWNER+NAME/repo (or
#                 DIR/OWNER+NAME when that is itself a git directory), as the `fetch` tool of
#                 the development sessions lays them out (/work/.mirror); no network.
#                 Default: clone https://github.com/OWNER/NAME (git clone --filter=blob:none,
#                 then a checkout of the pinned commit) into DEST/.repos/OWNER+NAME, once.
#   --dest DIR    where to lay them out (default: ./corpus at the repository root, ignored by
#                 git through /corpus/ in .gitignore)
#   ID...         only these rows (default: all)
# Exit 0 when every row asked for was laid out; 1 when one was not (each said on stderr).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tsv=$here/corpus.tsv
mirror=""
dest=$root/corpus
ids=()
while [ $# -gt 0 ]; do
    case $1 in
    --mirror) mirror=${2:?--mirror DIR}; shift 2 ;;
    --dest) dest=${2:?--dest DIR}; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "fetch.sh: unknown option $1" >&2; exit 2 ;;
    *) ids+=("$1"); shift ;;
    esac
done
mkdir -p "$dest" && dest=$(cd "$dest" && pwd)
url_base=${CORPUS_URL_BASE:-https://github.com}
export GIT_TERMINAL_PROMPT=0 GIT_CONFIG_NOSYSTEM=1 GIT_ADVICE=0

wanted() { # ID
    [ ${#ids[@]} = 0 ] && return 0
    local i; for i in "${ids[@]}"; do [ "$i" = "$1" ] && return 0; done
    return 1
}

# The git directory that holds PROJECT's COMMIT (prints it), or fails with a line on stderr.
source_of() { # PROJECT COMMIT
    local proj=$1 commit=$2 slug=${1/\//+} d
    if [ -n "$mirror" ]; then
        for d in "$mirror/$slug/repo" "$mirror/$slug" "$mirror/$slug.git"; do
            if [ -d "$d" ] && git --git-dir="$d" rev-parse -q --verify "$commit^{commit}" >/dev/null 2>&1; then
                echo "$d"; return 0
            fi
        done
        echo "fetch.sh: $proj: no git directory under $mirror/$slug holds commit $commit" >&2
        return 1
    fi
    d=$dest/.repos/$slug
    if [ ! -d "$d/.git" ]; then
        rm -rf "$d"
        mkdir -p "$dest/.repos"
        git clone -q --filter=blob:none --no-checkout "$url_base/$proj" "$d" >&2 ||
            { echo "fetch.sh: $proj: git clone $url_base/$proj failed" >&2; rm -rf "$d"; return 1; }
    fi
    if ! git -C "$d" rev-parse -q --verify "$commit^{commit}" >/dev/null 2>&1; then
        git -C "$d" fetch -q origin "$commit" >&2 ||
            { echo "fetch.sh: $proj: commit $commit not found at $url_base/$proj" >&2; return 1; }
    fi
    # the checkout fetches the commit's blobs in one go (a blob-less clone has none)
    git -C "$d" -c advice.detachedHead=false checkout -q --detach "$commit" >&2 ||
        { echo "fetch.sh: $proj: checkout of $commit failed" >&2; return 1; }
    echo "$d/.git"
}

fails=0 done_n=0
while IFS=$'\t' read -r id proj commit path licence kernels caller kind; do
    case $id in ''|'#'*) continue ;; esac
    wanted "$id" || continue
    src=$(source_of "$proj" "$commit") || { fails=$((fails + 1)); continue; }
    out=$dest/$id
    rm -rf "$out"
    mkdir -p "$out"
    idx=$(mktemp)
    # the tree at the commit, written with a private index (the source is not touched; gitlinks
    # of submodules are left out, as a clone without --recursive leaves them)
    if ! { rm -f "$idx" && GIT_INDEX_FILE=$idx git --git-dir="$src" read-tree "$commit"; }; then
        echo "fetch.sh: $id: could not read $proj@$commit" >&2
        rm -f "$idx"; fails=$((fails + 1)); continue
    fi
    # a snapshot may lack some blobs (the development mirrors leave out files of 4 MiB and
    # more: images, data); those files are left out, and said, the rest written
    missing=$(GIT_INDEX_FILE=$idx git --git-dir="$src" ls-files -s | awk '$1 != "160000" {print $2}' |
        git --git-dir="$src" cat-file --batch-check 2>/dev/null | awk '$2 == "missing" {print $1}')
    if [ -n "$missing" ]; then
        for b in $missing; do
            GIT_INDEX_FILE=$idx git --git-dir="$src" ls-files -s | awk -v b="$b" '$2 == b {sub(/^[^\t]*\t/, ""); print}'
        done | while IFS= read -r f; do
            echo "fetch.sh: $id: $f is not in the source (left out)" >&2
            GIT_INDEX_FILE=$idx git --git-dir="$src" update-index --force-remove -- "$f"
        done
    fi
    if ! GIT_INDEX_FILE=$idx git --git-dir="$src" --work-tree="$out" checkout-index -a -f; then
        echo "fetch.sh: $id: could not write $proj@$commit into $out" >&2
        rm -f "$idx"; fails=$((fails + 1)); continue
    fi
    rm -f "$idx"
    if [ ! -f "$out/$path" ]; then
        echo "fetch.sh: $id: $path is not in $proj@$commit" >&2; fails=$((fails + 1)); continue
    fi
    if [ "$caller" != - ] && [ ! -f "$out/$caller" ]; then
        echo "fetch.sh: $id: the caller $caller is not in $proj@$commit" >&2; fails=$((fails + 1)); continue
    fi
    # a repository of its own, one commit: the project's root for kerndiff (git top level)
    (cd "$out" && git init -q . && git add -A . &&
        GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
        git -c user.name=corpus -c user.email=corpus@localhost -c commit.gpgsign=false \
            commit -q -m "$proj@$commit (laid out by kerndiff tests/corpus/fetch.sh)") ||
        { echo "fetch.sh: $id: git init/commit in $out failed" >&2; fails=$((fails + 1)); continue; }
    done_n=$((done_n + 1))
    echo "$id: $proj@${commit:0:12} $path"
done <"$tsv"
echo "fetch.sh: $done_n laid out under $dest, $fails failed"
[ "$fails" = 0 ]
