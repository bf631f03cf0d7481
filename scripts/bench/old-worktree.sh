# Sourced by the A/B benchmarks (dlx.sh, sat-ab.sh): `old_worktree DIR REF` checks REF out
# in a git worktree at DIR, which must lie outside the repository (a build there must not
# touch this checkout's files), creating the worktree on first use. The worktree is scratch:
# what a benchmark copied into it (a timing loop, a manifest entry) is discarded.
old_worktree() {
    local dir=$1 ref=$2
    case "$(realpath -m "$dir")/" in
        "$(pwd)"/*) echo "OLD_DIR must be outside the repository" >&2; exit 2 ;;
    esac
    if [ ! -d "$dir" ]; then
        git worktree add --detach "$dir" "$ref" >/dev/null
    fi
    git -C "$dir" checkout --quiet --force --detach "$ref"
}
