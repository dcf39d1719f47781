//! Compressed rows: values grouped by a row (a grid cell, a body) in one flat list, built
//! by counting. The level's grid, the spatial query index, the push-out's jam list and
//! the solver's pairs are laid out this way.

/// Fills `start` (`rows + 1` offsets) and `values` so that `values[start[r]..start[r + 1]]`
/// are the values reported for row `r`, in the order they were reported. `visit` is
/// called twice and must report the same `(row, value)` items both times.
pub(crate) fn build(
    rows: usize,
    start: &mut Vec<u32>,
    values: &mut Vec<u32>,
    mut visit: impl FnMut(&mut dyn FnMut(usize, u32)),
) {
    start.clear();
    start.resize(rows + 1, 0);
    visit(&mut |r, _| start[r + 1] += 1);
    for r in 0..rows {
        start[r + 1] += start[r];
    }
    values.clear();
    values.resize(start[rows] as usize, 0);
    // Each row is filled from its start, which moves on to the next row's start; the
    // offsets are shifted back after.
    visit(&mut |r, v| {
        values[start[r] as usize] = v;
        start[r] += 1;
    });
    for r in (0..rows).rev() {
        start[r + 1] = start[r];
    }
    start[0] = 0;
}

#[cfg(test)]
mod tests {
    use super::build;

    #[test]
    fn groups_values_by_row_in_the_order_reported() {
        let items = [(2, 7), (0, 5), (2, 8), (4, 1), (0, 6)];
        let (mut start, mut values) = (vec![9; 2], vec![9; 9]);
        build(5, &mut start, &mut values, |emit| {
            items.iter().for_each(|&(r, v)| emit(r, v));
        });
        assert_eq!(start, [0, 2, 2, 4, 4, 5]);
        assert_eq!(values, [5, 6, 7, 8, 1]);
        build(0, &mut start, &mut values, |_| {});
        assert_eq!((start, values), (vec![0], vec![]));
    }
}
