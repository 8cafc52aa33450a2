//! A choice tree as a flat pre-order list of `(site, choice, children)`: any depth reads back.

use refgen_core::choice::{Choice, ChoiceTree};
use serde::{Deserialize, Serialize};
use serde::{Deserializer, Serializer};

type Node = (String, Option<Choice>, usize);

pub(super) fn serialize<S: Serializer>(tree: &ChoiceTree, s: S) -> Result<S::Ok, S::Error> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut stack = vec![tree];
    while let Some(t) = stack.pop() {
        nodes.push((t.site.to_string(), t.choice, t.children.len()));
        stack.extend(t.children.iter().rev());
    }
    nodes.serialize(s)
}

pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ChoiceTree, D::Error> {
    let nodes = Vec::<Node>::deserialize(d)?;
    unflatten(nodes).map_err(serde::de::Error::custom)
}

/// Rebuilds the tree without recursion: each open node waits for its children.
fn unflatten(nodes: Vec<Node>) -> Result<ChoiceTree, String> {
    let mut open: Vec<(ChoiceTree, usize)> = Vec::new();
    let mut nodes = nodes.into_iter();
    loop {
        let Some((site, choice, n)) = nodes.next() else {
            return Err("the choice tree ends early".into());
        };
        let mut done = ChoiceTree { site: site.into(), choice, children: Vec::with_capacity(n.min(1024)) };
        if n > 0 {
            open.push((done, n));
            continue;
        }
        // Close every node whose last child this was.
        loop {
            match open.last_mut() {
                None => {
                    return match nodes.next() {
                        None => Ok(done),
                        Some(_) => Err("nodes follow the end of the choice tree".into()),
                    }
                }
                Some((parent, left)) => {
                    parent.children.push(done);
                    *left -= 1;
                    if *left > 0 {
                        break;
                    }
                    done = open.pop().expect("an open node").0;
                }
            }
        }
    }
}
