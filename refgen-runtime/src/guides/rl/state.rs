//! RLCheck's state abstraction (Sec. 4.3), read off the case's trail: Sequence, Tree, Tree L/R.
//!
//! - **Sequence**: the last `w` choices made;
//! - **Tree**: the last `w` *influencing* choices on the way from the root to
//!   this choice point (see below), each as its choice;
//! - **Tree L/R** (the default): the same path, with each structural branch
//!   recorded by which field or option it went into (its site and option).
//!
//! *Influencing choices* ("a choice in the construction of a child node is
//! influenced by choices constructing its parent node", Reddy et al.). At
//! each level of the trail from the root down to the choice point, the
//! influencing choices are the closed children that are integer choices
//! (data, whose value the rest of the generator may depend on), then the open
//! node the path goes through: an open pick (the option being built) or a
//! part. A pick is structural: it influences what its option builds while
//! that is open, and nothing after it closes (a finished left subtree, or a
//! `false` / `None` that built nothing, is not seen by later siblings;
//! [`super::RlConfig::sibling_picks`] keeps the latter). A closed choice
//! point with choices beneath it is not seen either. A closed part (a field,
//! a tuple component, a list element) is transparent: its influencing
//! choices count as if made at its level. For the paper's BST generator this
//! gives exactly the states of its Fig. 2-3 and of the authors' code (`[2,
//! True]` for Tree and `[2, R]` for Tree L/R before choosing `c7`); see
//! [`describe_states`].

use super::RlConfig;
use crate::guide::{CaseInfo, ChoiceContext, Erased, Guide, GuidedSource, Plan};
use crate::hashing::{finish, hash_str, mix};
use refgen_core::choice::{Choice, Site};
use refgen_core::gen::Gen;
use refgen_core::source::{rng_from_seed, Stop};
use refgen_core::trail::{Node, Trail};
use std::fmt;

/// How a learner's state is derived from the choices made so far (RLCheck Sec. 4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Abstraction {
    /// The last `w` choices made, whatever made them.
    Sequence,
    /// The last `w` influencing choices on the path from the root, each as its
    /// choice: the left and right child of a node get the same state.
    Tree,
    /// As [`Abstraction::Tree`], with each structural branch on the path
    /// recorded by which field (part site) or option (pick site and option) it went into.
    #[default]
    TreeLR,
}

impl Abstraction {
    /// The abstraction's name as RLCheck writes it: `Sequence`, `Tree`, `TreeLR`.
    pub fn name(self) -> &'static str {
        match self {
            Abstraction::Sequence => "Sequence",
            Abstraction::Tree => "Tree",
            Abstraction::TreeLR => "TreeLR",
        }
    }

    /// All three abstractions, in RLCheck's order.
    pub const ALL: [Abstraction; 3] = [Abstraction::Sequence, Abstraction::Tree, Abstraction::TreeLR];
}

impl fmt::Display for Abstraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One element of an abstract state: a trail node, seen one of three ways.
#[derive(Debug, Clone, Copy)]
enum Item {
    /// A choice, abstracted to its bucket.
    Choice(usize),
    /// Tree L/R: the path went into this option of this pick.
    Branch(usize),
    /// Tree L/R: the path went into this part.
    Part(usize),
}

/// The abstract state at a choice point, built from the trail; newest item first.
#[derive(Debug, Clone, Default)]
pub(crate) struct State {
    items: Vec<Item>,
}

impl State {
    /// Build the state of the choice point about to be made on `trail`.
    pub(crate) fn collect(&mut self, trail: &Trail, config: &RlConfig) {
        self.items.clear();
        let w = config.window;
        if w == 0 {
            return;
        }
        if config.abstraction == Abstraction::Sequence {
            let nodes = trail.nodes();
            for id in (0..nodes.len()).rev() {
                if nodes[id].choice.is_some() {
                    self.items.push(Item::Choice(id));
                    if self.items.len() == w {
                        return;
                    }
                }
            }
            return;
        }
        let open = trail.open_nodes();
        for m in (0..open.len()).rev() {
            if self.influencing(trail, open[m], config.sibling_picks, w) {
                return;
            }
            if m == 0 {
                break;
            }
            let opener = open[m];
            let item = match (config.abstraction, trail.node(opener).choice) {
                (Abstraction::TreeLR, Some(_)) => Item::Branch(opener),
                (Abstraction::TreeLR, None) => Item::Part(opener),
                (_, Some(_)) => Item::Choice(opener),
                (_, None) => continue,
            };
            self.items.push(item);
            if self.items.len() == w {
                return;
            }
        }
    }

    /// Push the influencing choices among the closed children of `id`,
    /// newest first; whether the window is full.
    fn influencing(&mut self, trail: &Trail, id: usize, sibling_picks: bool, w: usize) -> bool {
        for c in trail.children_rev(id) {
            let node = trail.node(c);
            if node.is_open() {
                continue;
            }
            if node.choice.is_some() {
                if trail.choices_beneath(c) == 0 && (sibling_picks || node.label().is_none()) {
                    self.items.push(Item::Choice(c));
                    if self.items.len() == w {
                        return true;
                    }
                }
            } else if self.influencing(trail, c, sibling_picks, w) {
                return true;
            }
        }
        false
    }

    /// The key of the state.
    pub(crate) fn key(&self, trail: &Trail) -> u64 {
        let mut h = mix(0x0123_4567_89ab_cdef, self.items.len() as u64);
        for item in self.items.iter().rev() {
            let k = match *item {
                Item::Choice(id) => trail.node(id).bucket(),
                Item::Branch(id) => mix(hash_str(trail.node(id).site), trail.node(id).bucket().wrapping_add(1)),
                Item::Part(id) => hash_str(trail.node(id).site),
            };
            h = mix(h, k);
        }
        finish(h)
    }

    /// The state, human-readable, oldest item first.
    fn render(&self, trail: &Trail) -> Vec<String> {
        self.items
            .iter()
            .rev()
            .map(|item| match *item {
                Item::Choice(id) => render_choice(trail.node(id)),
                Item::Branch(id) => format!("{}={}", trail.node(id).site, render_choice(trail.node(id))),
                Item::Part(id) => trail.node(id).site.to_string(),
            })
            .collect()
    }
}

fn render_choice(node: &Node) -> String {
    match node.label() {
        Some(l) => l.to_string(),
        None if node.is_wide() => format!("#{}", node.bucket()),
        None => node.choice.unwrap_or(0).to_string(),
    }
}

// ---------------------------------------------------------------- explaining states

/// The abstract state a guide would see at one choice point, human-readable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribedState {
    /// The choice point.
    pub site: Site,
    /// The choice made there.
    pub choice: Choice,
    /// The state before the choice, oldest element first: a choice by its
    /// option label or integer (`#k` for bucket `k` of a wide range), a
    /// Tree L/R branch as `site=label`, a Tree L/R part by its site.
    pub state: Vec<String>,
}

impl fmt::Display for DescribedState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.state.join(", "))
    }
}

struct Script<'a> {
    choices: &'a [Choice],
    next: usize,
    config: RlConfig,
    state: State,
    out: Vec<DescribedState>,
}

impl Guide for Script<'_> {
    fn name(&self) -> &str {
        "script"
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, _rng: &mut refgen_core::DetRng) -> Result<Choice, Stop> {
        self.state.collect(ctx.trail, &self.config);
        let c = self.choices.get(self.next).copied().filter(|&c| ctx.request.accepts(c)).unwrap_or(0);
        self.next += 1;
        self.out.push(DescribedState { site: ctx.site, choice: c, state: self.state.render(ctx.trail) });
        Ok(c)
    }
}

/// Run `gen` once on the choices `choices` (in order; an unfit or missing
/// choice is answered with 0) and return the state that `config`'s
/// abstraction and window derive at each choice point: what an
/// [`super::RlGuide`] with that configuration would show the learner there.
///
/// ```
/// use refgen::prelude::*;
/// use refgen::interpret::*;
/// use refgen::guides::rl::{describe_states, Abstraction, RlConfig};
///
/// let g = (int(0u8..=9).site("a"), bool().site("b"), int(0u8..=9).site("c"));
/// let seq = describe_states(&g, &[3, 1, 4], RlConfig::default().abstraction(Abstraction::Sequence));
/// assert_eq!(seq[2].to_string(), "[3, true]");
/// let lr = describe_states(&g, &[3, 1, 4], RlConfig::default());
/// assert_eq!(lr[2].to_string(), "[3, 2]"); // the int in part "0", then part "2"; the closed bool is not seen
/// ```
pub fn describe_states<G>(gen: &G, choices: &[Choice], config: RlConfig) -> Vec<DescribedState>
where
    G: Gen + ?Sized,
    G::Value: fmt::Debug,
{
    let mut script = Script { choices, next: 0, config, state: State::default(), out: Vec::new() };
    let mut trail = Trail::new();
    let mut rng = rng_from_seed(0);
    let case = CaseInfo { index: 0, budget: 1, gen: &Erased(gen) };
    let plan = Plan::fresh();
    let _ = gen.run(&mut GuidedSource::new(&mut script, &mut trail, &plan, case, &mut rng));
    script.out
}
