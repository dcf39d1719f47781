//! The loops of the conjugate gradients preconditioned by symmetric Gauss–Seidel, in
//! Eisenstat's form: an iteration is two sweeps over the rows and no product with the
//! system.
//!
//! The system is `A = L + D + Lᵀ` (`D` its diagonal, `L` its part below the diagonal in
//! the sweeps' order), the preconditioner `M = (D + L) D⁻¹ (D + Lᵀ)`. Written as
//! `M = C Cᵀ` with `C = (D + L) D^{-1/2}`, preconditioned conjugate gradients are plain
//! conjugate gradients on `C⁻¹ A C⁻ᵀ`, and that product needs no product with `A`:
//! with `t = (D + Lᵀ)⁻¹ D p` (a backward sweep) and `A = (D + L) + (D + Lᵀ) − D`,
//! `(D + L)⁻¹ A t = t + (D + L)⁻¹ D (p − t)` (a forward sweep). The vectors are kept
//! scaled by `D^{1/2}` (so no square root is taken) and the inner products weighted by
//! `D`: the residual is `r̂ = (D + L)⁻¹ r`, the search direction `p̂`, `q̂ = t + u` the
//! product, and the impulses found grow by `α t` (`x = C⁻ᵀ ȳ` adds up the `t` of each
//! direction). In exact arithmetic the iterates are those of the textbook form (a
//! product with `A` and both sweeps an iteration), with a third less work: the product
//! was a pass that added every row's direction up on its bodies and a pass that read
//! the closing speeds back (`docs/contacts.md`, thirty-second session). `r̂·D r̂` is the
//! textbook `r·M⁻¹r`; the true residual `r = (D + L) r̂` is not at hand, so the
//! iterations stop on `D r̂`, the closing speed each row has left once the rows before it
//! in a Gauss–Seidel sweep of the residual took theirs.
//!
//! `dv` holds the velocity changes of the rows swept before in the sweep (the caller
//! clears it); `Changes` lets the separator's rows read and write the regions' arrays.

use super::{CgRow, Changes, Vectors};

/// The start: the residual `r` (closing speeds) becomes `r̂ = (D + L)⁻¹ r`, in place,
/// over a block's rows in order.
pub(super) fn start<C: Changes + ?Sized>(
    rows: &[CgRow],
    inv_d: &[f64],
    v: &mut Vectors,
    dv: &mut C,
    w: &[f64],
) {
    let n = rows.len();
    let (inv_d, r) = (&inv_d[..n], &mut v.r[..n]);
    for i in 0..n {
        let y = (r[i] - dv.closing(rows[i])) * inv_d[i];
        r[i] = y;
        dv.add(rows[i], y, w);
    }
}

/// The backward sweep over a block's rows in reverse: the search direction
/// `p̂ ← r̂ + beta p̂`, and `t = (D + Lᵀ)⁻¹ D p̂` into `z`.
pub(super) fn backward<C: Changes + ?Sized>(
    rows: &[CgRow],
    inv_d: &[f64],
    v: &mut Vectors,
    dv: &mut C,
    beta: f64,
    w: &[f64],
) {
    let n = rows.len();
    let (inv_d, r, p, t) = (&inv_d[..n], &v.r[..n], &mut v.p[..n], &mut v.z[..n]);
    for i in (0..n).rev() {
        let pi = r[i] + beta * p[i];
        p[i] = pi;
        let ti = pi - dv.closing(rows[i]) * inv_d[i];
        t[i] = ti;
        dv.add(rows[i], ti, w);
    }
}

/// The forward sweep over a block's rows in order: `u = (D + L)⁻¹ D (p̂ − t)` and the
/// product `q̂ = t + u`; returns the block's part of `p̂·D q̂`.
pub(super) fn forward<C: Changes + ?Sized>(
    rows: &[CgRow],
    inv_d: &[f64],
    d: &[f64],
    v: &mut Vectors,
    dv: &mut C,
    w: &[f64],
) -> f64 {
    let n = rows.len();
    let (inv_d, d, p, t, q) = (&inv_d[..n], &d[..n], &v.p[..n], &v.z[..n], &mut v.q[..n]);
    let mut pq = 0.0;
    for i in 0..n {
        let u = (p[i] - t[i]) - dv.closing(rows[i]) * inv_d[i];
        dv.add(rows[i], u, w);
        let qi = t[i] + u;
        q[i] = qi;
        pq += d[i] * p[i] * qi;
    }
    pq
}

/// The step `alpha`: the impulses `x += alpha t`, the residual `r̂ −= alpha q̂`; returns
/// the block's largest `|D r̂|` and its part of `r̂·D r̂`.
pub(super) fn update(d: &[f64], v: &mut Vectors, alpha: f64) -> (f64, f64) {
    let n = d.len();
    let (x, r, t, q) = (&mut v.x[..n], &mut v.r[..n], &v.z[..n], &v.q[..n]);
    let (mut largest, mut rz) = (0.0f64, 0.0);
    for i in 0..n {
        x[i] += alpha * t[i];
        let ri = r[i] - alpha * q[i];
        r[i] = ri;
        let dr = d[i] * ri;
        largest = largest.max(dr.abs());
        rz += dr * ri;
    }
    (largest, rz)
}
