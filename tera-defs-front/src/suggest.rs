//! "Did you mean" suggestions: one edit distance for the def front end
//! (unknown types and flags) and the command line (unknown packet names).

/// Edit distance between `a` and `b` over `char`s: insertions, deletions,
/// substitutions and swaps of two adjacent characters (`CAHT` -> `CHAT`)
/// each cost one (the optimal string alignment distance). Case matters;
/// compare lower-cased text for a case-insensitive distance.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: i - 2, i - 1 and i (for the swap of two characters).
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Up to three of `candidates` closest to `word` (case-insensitive
/// [`edit_distance`]), closest first (ties in `candidates` order), that are
/// at most `max_distance` edits away: the closest ones, and any others one
/// edit away.
pub fn nearest<'a>(word: &str, candidates: &[&'a str], max_distance: usize) -> Vec<&'a str> {
    let wanted = word.to_lowercase();
    let mut scored: Vec<(usize, usize, &str)> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| (edit_distance(&wanted, &c.to_lowercase()), i, *c))
        .filter(|&(d, _, _)| d <= max_distance)
        .collect();
    scored.sort_unstable();
    let Some(&(best, _, _)) = scored.first() else {
        return Vec::new();
    };
    scored
        .into_iter()
        .filter(|&(d, _, _)| d == best || d <= 1)
        .take(3)
        .map(|(_, _, c)| c)
        .collect()
}

/// The distance up to which a word of `len` characters still looks like a
/// typo of another: a third of its length, at least `floor`.
pub fn typo_limit(len: usize, floor: usize) -> usize {
    (len / 3).max(floor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("S_CHAT", "S_CHAT"), 0);
        assert_eq!(edit_distance("S_CAHT", "S_CHAT"), 1);
        assert_eq!(edit_distance("S_CHA", "S_CHAT"), 1);
        assert_eq!(edit_distance("C_CHAT", "S_CHAT"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("flaot", "float"), 1);
        assert_eq!(edit_distance("uint23", "uint32"), 1);
        // Characters, not bytes: `é` is one character.
        assert_eq!(edit_distance("é", "e"), 1);
    }

    #[test]
    fn nearest_names() {
        let names = ["S_CHAT", "C_CHAT", "S_LOGIN", "S_WHISPER"];
        assert_eq!(nearest("S_CAHT", &names, 2), ["S_CHAT"]);
        assert_eq!(nearest("s_chat", &names, 2), ["S_CHAT", "C_CHAT"]);
        assert!(nearest("NOTHING_LIKE_IT", &names, 5).is_empty());
        let types = ["int32", "uint32", "float"];
        assert_eq!(nearest("INT32", &types, 1), ["int32", "uint32"]);
        assert_eq!(nearest("flaot", &types, 1), ["float"]);
    }

    #[test]
    fn limits() {
        assert_eq!(typo_limit(5, 1), 1);
        assert_eq!(typo_limit(6, 1), 2);
        assert_eq!(typo_limit(3, 2), 2);
    }
}
