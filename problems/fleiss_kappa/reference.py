"""Reference solution for fleiss_kappa: mean per-item agreement among n raters, corrected for the
agreement that the overall category frequencies would give by chance."""


def fleiss_kappa(counts: list[list[int]]) -> float:
    if not counts:
        raise ValueError("there are no items")
    categories = len(counts[0])
    for item, row in enumerate(counts):
        if len(row) != categories:
            raise ValueError(f"item {item} has {len(row)} categories, item 0 has {categories}")
        for category, count in enumerate(row):
            if count < 0:
                raise ValueError(f"item {item} has the negative count {count} in category {category}")
    raters = sum(counts[0])
    for item, row in enumerate(counts):
        if sum(row) != raters:
            raise ValueError(f"item {item} was rated {sum(row)} times, item 0 {raters} times")
    if raters < 2:
        raise ValueError(f"every item needs at least 2 raters, not {raters}")
    # Exact integer form. With N items, n raters, T = N n ratings, S = sum of n_ij^2 and
    # C = sum of the squared category totals: P_bar = (S - T) / (T (n - 1)), P_e = C / T^2, and
    # (P_bar - P_e) / (1 - P_e) = ((S - T) T - C (n - 1)) / ((n - 1) (T^2 - C)).
    total = len(counts) * raters
    squares = sum(count * count for row in counts for count in row)
    columns = [sum(row[j] for row in counts) for j in range(categories)]
    chance = sum(column * column for column in columns)
    if chance == total * total:
        raise ValueError("every rating is in one category, so P_e = 1 and kappa is undefined")
    return ((squares - total) * total - chance * (raters - 1)) / ((raters - 1) * (total * total - chance))
