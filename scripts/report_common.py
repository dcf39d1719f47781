"""Helpers the matrix reports share: medians over repetitions, and when a scene settled."""
import statistics


def med(rs, key):
    """The median of `key` over the runs `rs` that have it, or None."""
    vals = [r[key] for r in rs if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def settled(rs):
    """The median time the runs `rs` settled at, with how many did; "never" if none did."""
    vals = [r["settled_at_s"] for r in rs]
    known = sorted(v for v in vals if v is not None)
    if not known:
        return "never"
    return f"{statistics.median(known):.2f} s ({len(known)}/{len(vals)})"
