//! Pass 11: a deleted sibling's work done by a later one made larger (two allocations merged into one).

use super::passes::PAIR_WINDOW;
use super::Shrinker;
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::edit::{Edit, Path};

/// What pass 11 adds to a later leaf choice when it deletes an earlier sibling.
const RAISES: &[Choice] = &[1, 2, 3, 4, 8, 16, 32, 64, 128];

impl<F: FnMut(&mut ChoiceTree, bool) -> Option<ChoiceTree>> Shrinker<F> {
    /// Pass 11: delete one sibling with the length before it lowered, and
    /// raise one leaf choice of a later sibling of the same site (within
    /// [`PAIR_WINDOW`]) by each of [`RAISES`] until a candidate fails: what
    /// the deleted element did, a later one does with a larger value. The
    /// first kept candidate ends the pass (the round runs again).
    pub(super) fn delete_and_raise(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, |ix, i| ix.children(i) >= 2, &mut path) {
            let Some(node) = self.current.get(&path) else { return };
            // (deleted child, later child, the leaf's path from the later child, its choice)
            let mut tries: Vec<(usize, usize, Path, Choice)> = Vec::new();
            for (d, deleted) in node.children.iter().enumerate() {
                for (l, later) in node.children.iter().enumerate().skip(d + 1).take(PAIR_WINDOW) {
                    if later.site != deleted.site {
                        continue;
                    }
                    match later.choice {
                        Some(c) if later.children.is_empty() => tries.push((d, l, Path::new(), c)),
                        _ => leaves_within(later, &mut Path::new(), &mut |p, c| tries.push((d, l, p.clone(), c))),
                    }
                }
            }
            // First the later sibling made again as large as it goes (a raise mark around it,
            // emptied): where the deleted one changed what the later ones are made of (a command
            // whose shape depends on the state), its choices no longer fit.
            let mut pairs: Vec<(usize, usize)> = tries.iter().map(|t| (t.0, t.1)).collect();
            pairs.dedup();
            for (d, l) in pairs {
                if self.out_of_budget() {
                    return;
                }
                let Some(site) = self.current.get(&path).and_then(|n| n.children.get(l)).map(|n| n.site.clone()) else {
                    return;
                };
                let edits = [
                    Edit::Delete { at: path.clone(), start: d, len: 1, lower_len: true },
                    Edit::Delete { at: path.clone(), start: l - 1, len: 1, lower_len: false },
                    Edit::Insert {
                        at: path.clone(),
                        index: l - 1,
                        node: ChoiceTree::raise(ChoiceTree::group(site, Vec::new())),
                    },
                ];
                if self.try_edits(&edits) {
                    return;
                }
            }
            for (d, l, leaf, c) in tries {
                for &raise in RAISES {
                    if self.out_of_budget() {
                        return;
                    }
                    let Some(raised) = c.checked_add(raise) else { break };
                    // The later child moves one place down once the deleted one is gone.
                    let at = [&path[..], &[l - 1], &leaf[..]].concat();
                    let delete = Edit::Delete { at: path.clone(), start: d, len: 1, lower_len: true };
                    if self.try_edits(&[delete, Edit::Set { at, choice: raised }]) {
                        return;
                    }
                }
            }
            i = j + 1;
        }
    }
}

/// Calls `f` with the path (from `t`) and choice of each leaf choice in `t`, in pre-order.
fn leaves_within(t: &ChoiceTree, path: &mut Path, f: &mut impl FnMut(&Path, Choice)) {
    for (k, c) in t.children.iter().enumerate() {
        path.push(k);
        match c.choice {
            Some(choice) if c.children.is_empty() => f(path, choice),
            _ => leaves_within(c, path, f),
        }
        path.pop();
    }
}
