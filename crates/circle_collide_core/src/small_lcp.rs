//! A small dense linear complementarity problem, solved exactly: find `x ≥ 0` with
//! `w = A x + q ≥ 0` and `xᵀ w = 0`, for a symmetric positive semi-definite `A` of a few
//! dozen rows (the contacts of one same-instant cluster, [`same_instant`](crate::same_instant)).
//!
//! Murty's least-index principal pivoting: a set `S` of rows whose `w` is held at 0
//! (their `x` solves `A_SS x_S = −q_S` by Cholesky), starting empty; each round toggles
//! the first row that breaks a condition (`x < 0` in `S`, `w < 0` outside it). For a
//! positive definite `A` it ends in finitely many rounds at the unique solution; a tiny
//! diagonal shift keeps a semi-definite `A` (redundant contacts) solvable, and the answer
//! is checked against the unshifted `A` before it is taken.

/// Scratch of [`solve`], kept between calls.
#[derive(Clone, Debug, Default)]
pub(crate) struct LcpScratch {
    basic: Vec<bool>,
    rows: Vec<usize>,
    chol: Vec<f64>,
    rhs: Vec<f64>,
    w: Vec<f64>,
}

impl LcpScratch {
    /// Bytes of heap memory held.
    pub(crate) fn heap_bytes(&self) -> usize {
        use crate::simulation::capacity_bytes as cap;
        cap(&self.basic) + cap(&self.rows) + cap(&self.chol) + cap(&self.rhs) + cap(&self.w)
    }
}

/// Solves the problem for the `n × n` row-major `a` and `q`, writing `x`; `false` when
/// no solution was found within `8 n + 16` rounds, the shifted `A` is not positive
/// definite, or the solution misses the conditions by more than a tolerance relative to
/// `q` (an infeasible problem: a body squeezed between two partners it cannot leave).
pub(crate) fn solve(a: &[f64], q: &[f64], x: &mut [f64], s: &mut LcpScratch) -> bool {
    let n = q.len();
    debug_assert!(a.len() == n * n && x.len() == n);
    let scale = q.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    x.fill(0.0);
    if n == 0 || scale == 0.0 || !scale.is_finite() {
        return n == 0 || scale == 0.0;
    }
    let diag = (0..n).fold(0.0f64, |m, i| m.max(a[i * n + i]));
    if !(diag > 0.0 && diag.is_finite()) {
        return false;
    }
    let shift = 1e-13 * diag;
    let tol = 1e-9 * scale;
    s.basic.clear();
    s.basic.resize(n, false);
    s.w.clear();
    s.w.extend_from_slice(q);
    for _ in 0..8 * n + 16 {
        // The first row that breaks a condition.
        let broken = (0..n).find(|&i| {
            if s.basic[i] {
                x[i] < 0.0
            } else {
                s.w[i] < -tol
            }
        });
        let Some(i) = broken else {
            return conditions_hold(a, q, x, tol);
        };
        s.basic[i] = !s.basic[i];
        if !solve_basic(a, q, x, shift, s) {
            return false;
        }
    }
    false
}

/// Solves `(A_SS + shift I) x_S = −q_S` for the basic rows `S`, the others 0, and sets
/// `w = A x + q`.
fn solve_basic(a: &[f64], q: &[f64], x: &mut [f64], shift: f64, s: &mut LcpScratch) -> bool {
    let n = q.len();
    s.rows.clear();
    s.rows.extend((0..n).filter(|&i| s.basic[i]));
    let m = s.rows.len();
    // Cholesky A_SS + shift I = L Lᵀ, L row-major in `chol`.
    s.chol.clear();
    s.chol.resize(m * m, 0.0);
    for r in 0..m {
        for c in 0..=r {
            let mut sum = a[s.rows[r] * n + s.rows[c]];
            if r == c {
                sum += shift;
            }
            for k in 0..c {
                sum -= s.chol[r * m + k] * s.chol[c * m + k];
            }
            if r == c {
                // Not positive (or NaN): not positive definite.
                if sum.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
                    return false;
                }
                s.chol[r * m + r] = sum.sqrt();
            } else {
                s.chol[r * m + c] = sum / s.chol[c * m + c];
            }
        }
    }
    // L y = −q_S, then Lᵀ x_S = y.
    s.rhs.clear();
    s.rhs.extend(s.rows.iter().map(|&i| -q[i]));
    for r in 0..m {
        let mut sum = s.rhs[r];
        for k in 0..r {
            sum -= s.chol[r * m + k] * s.rhs[k];
        }
        s.rhs[r] = sum / s.chol[r * m + r];
    }
    for r in (0..m).rev() {
        let mut sum = s.rhs[r];
        for k in r + 1..m {
            sum -= s.chol[k * m + r] * s.rhs[k];
        }
        s.rhs[r] = sum / s.chol[r * m + r];
    }
    x.fill(0.0);
    for (r, &i) in s.rows.iter().enumerate() {
        x[i] = s.rhs[r];
    }
    for i in 0..n {
        s.w[i] = q[i] + (s.rows.iter()).map(|&j| a[i * n + j] * x[j]).sum::<f64>();
    }
    true
}

/// Whether `x` solves the problem for the unshifted `A` within `tol`.
fn conditions_hold(a: &[f64], q: &[f64], x: &[f64], tol: f64) -> bool {
    let n = q.len();
    (0..n).all(|i| {
        let w = q[i] + (0..n).map(|j| a[i * n + j] * x[j]).sum::<f64>();
        x[i].is_finite() && x[i] >= 0.0 && w >= -tol && (x[i] == 0.0 || w.abs() <= tol)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &[f64], q: &[f64]) -> Option<Vec<f64>> {
        let mut x = vec![0.0; q.len()];
        solve(a, q, &mut x, &mut LcpScratch::default()).then_some(x)
    }

    #[test]
    fn one_row_is_a_clamped_division() {
        let x = run(&[2.0], &[-3.0]).expect("solvable")[0];
        assert!((x - 1.5).abs() < 1e-12, "{x}");
        assert_eq!(run(&[2.0], &[3.0]), Some(vec![0.0]));
    }

    #[test]
    fn a_light_body_between_a_floor_and_a_heavy_one_passes_the_whole_push() {
        // Body 1 (inverse mass 1000) rests on a floor (contact 0, normal down from it),
        // body 2 (inverse mass 1) comes down on it at 1 (contact 1, normal up from 1 to
        // 2). A = J M⁻¹ Jᵀ (the normals are opposite: −w1 off the diagonal); the heavy
        // body must stop: x1 = 1 / w2 = 1, and the floor takes all of it.
        let (w1, w2) = (1000.0, 1.0);
        let a = [w1, -w1, -w1, w1 + w2];
        let q = [0.0, -1.0];
        let x = run(&a, &q).expect("solvable");
        assert!(
            (x[0] - 1.0).abs() < 1e-9 && (x[1] - 1.0).abs() < 1e-9,
            "{x:?}"
        );
    }

    #[test]
    fn a_separating_row_gets_no_impulse() {
        let a = [2.0, -1.0, -1.0, 2.0];
        let x = run(&a, &[-1.0, 5.0]).expect("solvable");
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1] == 0.0, "{x:?}");
    }

    #[test]
    fn a_body_squeezed_between_two_immovable_partners_has_no_solution() {
        // One body, two opposite contacts with immovable partners closing on it.
        let a = [1.0, -1.0, -1.0, 1.0];
        assert_eq!(run(&a, &[-1.0, -1.0]), None);
    }

    #[test]
    fn random_positive_definite_problems_meet_the_conditions() {
        let mut seed = 7u64;
        let mut unit = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for n in 1..12 {
            let j: Vec<f64> = (0..n * (n + 2)).map(|_| unit()).collect();
            let cols = n + 2;
            let a: Vec<f64> = (0..n * n)
                .map(|k| {
                    (0..cols)
                        .map(|c| j[(k / n) * cols + c] * j[(k % n) * cols + c])
                        .sum()
                })
                .collect();
            let q: Vec<f64> = (0..n).map(|_| unit()).collect();
            let x = run(&a, &q).expect("positive definite: solvable");
            for i in 0..n {
                let w = q[i] + (0..n).map(|k| a[i * n + k] * x[k]).sum::<f64>();
                assert!(
                    x[i] >= 0.0 && w >= -1e-9 && (x[i] * w).abs() < 1e-9,
                    "n {n}: {x:?}"
                );
            }
        }
    }
}
