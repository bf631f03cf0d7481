# Sourced by the A/B benchmarks (bench-dlx.sh, bench-sat-ab.sh): `old_worktree DIR REF`
# checks REF out in a git worktree at DIR, which must lie outside the repository (a build
# there must not touch this checkout's files), creating the worktree on first use.
old_worktree() {
    local dir=$1 ref=$2
    case "$(realpath -m "$dir")/" in
        "$(pwd)"/*) echo "OLD_DIR must be outside the repository" >&2; exit 2 ;;
    esac
    if [ ! -d "$dir" ]; then
        git worktree add --detach "$dir" "$ref" >/dev/null
    fi
    git -C "$dir" checkout --quiet --detach "$ref"
}
