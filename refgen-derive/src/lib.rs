//! Procedural macros for reflective generators: `#[derive(Reflective)]` and `#[property]`.
//!
//! # `#[derive(Reflective)]`
//!
//! Derives `refgen::refgen_core::Reflective` for a struct or an enum: one
//! generator, built from the type's own shape, that every interpretation
//! accepts, forward (generate, parse, replay, guides, language, derivatives)
//! and backward (reflect, check, probability). Nothing is written twice.
//!
//! ```
//! use refgen::interpret::{generate_recorded, parse_tree};
//! use refgen::prelude::*;
//!
//! #[derive(Debug, Clone, PartialEq, Reflective)]
//! #[assume(is_bst(self))]
//! enum Tree {
//!     #[choice(weight = 1)]
//!     Leaf,
//!     #[choice(weight = 3)]
//!     Node(Box<Tree>, #[choice(range = 0..=10)] u8, Box<Tree>),
//! }
//!
//! fn is_bst(t: &Tree) -> bool {
//!     fn within(t: &Tree, lo: u8, hi: u8) -> bool {
//!         match t {
//!             Tree::Leaf => true,
//!             Tree::Node(l, k, r) => lo <= *k && *k <= hi && within(l, lo, k.saturating_sub(1)) && within(r, *k + 1, hi),
//!         }
//!     }
//!     within(t, 0, 10)
//! }
//!
//! let g = Tree::generator();
//! let (t, choices) = generate_recorded(&g, 7);
//! if let Ok(t) = t {
//!     assert!(is_bst(&t));
//!     assert_eq!(parse_tree(&g, &choices).unwrap(), t);
//! }
//! ```
//!
//! Every example on this page is a doctest, run against the `refgen` crate
//! (this crate's dev-dependency): they start with `use refgen::prelude::*;`,
//! which brings the derive, the trait and the functions that make generators
//! (`int`, `vec`, `regex`, ...) into scope.
//!
//! ## What the generator does
//!
//! - **A struct** generates its fields in declaration order, each as a part
//!   of the choice tree named **`Type.field`** (`Type.0`, `Type.1`, ... for
//!   positional fields), then builds the value.
//! - **An enum** makes one pick at the site **`Type`**, whose options are the
//!   variants, labelled by the variant's name (or its `label`), weighted by
//!   its `weight` (default 1). The fields of variant `V` are parts named
//!   **`Type::V.field`** (`Type::V.0`, ...). These site names are stable:
//!   guides keep one learner per site, weights are tuned per site and label,
//!   and reports name them.
//! - **Option order.** The options of a pick are the variants **sorted by how
//!   recursive they are**, declaration order kept within a group: first the
//!   variants whose fields are built only from primitives and standard
//!   containers of them, then those that mention other types or type
//!   parameters, then those that mention the type itself. So the first option
//!   is always a base case, which lenient replay takes when choices run out.
//! - **Termination.** Generation of a recursive type always terminates, with
//!   no size guard written by the user: every derived generator counts how
//!   many derived generators run around it (one count shared by all derived
//!   types, so mutual recursion is covered). At the type's depth budget
//!   (`#[reflect(depth = N)]`, default `refgen_core::combinators::DEFAULT_DEPTH`)
//!   an enum offers only its first group of options, and `Vec` and `Option`
//!   fields of possibly recursive elements offer only their shortest length
//!   or `None`. Backward runs count the same way, so a value deeper than the
//!   budget is outside the generator's range (`check` is false on it).
//! - **Fields** without attributes use the field type's own
//!   `Reflective::generator()` (integers favour 0, ±1, `MIN`, `MAX` and
//!   small values; chars favour printable ASCII and whitespace, then
//!   control characters, then the rest of Unicode: see
//!   `refgen_core::combinators::integer` and `refgen_core::combinators::char`);
//!   `Vec<T>` fields have a default length at the field's site (short most
//!   often, up to the run's largest size at times: `refgen_core::combinators::sizes`), and
//!   `Option<T>` fields a `None`/`Some` pick (weights 1 and 3) at the field's site.
//! - **One forward body.** The generator's forward direction is written
//!   once, generic over what answers its choices, and serves both the
//!   interpretations that go through a `Source` (parse, replay, guides,
//!   recording) and plain generation from the RNG (`Gen::run_rng`), which
//!   makes the same draws without a dynamic call per choice: a derived type
//!   generates about as fast as the same combinators written by hand
//!   (`cargo run --release -p refgen-benches --bin gen_speed`).
//! - **Generics**: each type parameter used by a generated field gets the
//!   bound `T: Reflective + Clone`, and every type parameter `T: 'static`;
//!   a parameter only named inside `PhantomData<...>` (or in a `default` or
//!   `with` field) gets no `Reflective` bound. Replace the inferred bounds
//!   with `#[reflect(bound = "...")]`.
//! - **Lifetimes**: a type with lifetime parameters is implemented for its
//!   `'static` instance (`impl Reflective for Label<'static>`), which works
//!   when its fields own their data there: `Cow<'a, str>` (generated owned),
//!   `PhantomData<&'a T>`. A field that is a reference (`&'a str`) is an
//!   error, unless it has `#[choice(default = ...)]`.
//! - A type reached through `Box<T>` must be `Clone` (as the standard
//!   `Reflective` implementation for `Box` requires).
//!
//! ## Container attributes
//!
//! - **`#[assume(expr)]`**: the validity condition of a value, with `self`
//!   the value (a reference). A value for which it is false is made again
//!   (the failing part only: see *Hard validity conditions* below), up to
//!   `refgen_core::combinators::DEFAULT_RETRIES` (10) times, then
//!   generation stops with `Stop::Invalid`; `check`, `reflect` and `parse`
//!   reject such a value; every guide is rewarded by it.
//!
//!   ```
//!   # use refgen::prelude::*;
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   #[assume(self.lo <= self.hi)]
//!   struct Interval { lo: u8, hi: u8 }
//!
//!   assert!(!refgen::interpret::check(&Interval::generator(), &Interval { lo: 2, hi: 1 }));
//!   ```
//!
//!   Options follow the condition, in any order:
//!
//!   - **`every`** (the default): the condition holds for every value of the
//!     type, its parts of the same type included (hereditary). Each part is
//!     checked as soon as it is made, so a failing subtree is made again on
//!     the spot. Right for conditions that hold for the parts whenever they
//!     hold for the whole: order in a search tree, a bound on every node.
//!   - **`top`**: the condition holds for the outermost value of the type
//!     only (the value generated, or a field of another type), not for its
//!     parts of the same type: "the root is black", "the list of commands
//!     starts with `Open`". A type may have one `every` and one `top`
//!     condition.
//!   - **`retries = N`**: how many times a failing value is made again
//!     (0 to 1000; 0 ends the case at once, as before retries existed).
//!
//!   ```ignore
//!   // The order on every subtree; at the top only, a root key that is even.
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   #[assume(ordered(self))]
//!   #[assume(self.root_even(), top, retries = 30)]
//!   enum Both {
//!       Leaf,
//!       Node(Box<Both>, #[choice(range = 0..=10)] u8, Box<Both>),
//!   }
//!
//!   // A tree whose root is a node; its subtrees may be leaves.
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   #[assume(matches!(self, RootNode::Node(..)), top)]
//!   enum RootNode {
//!       Leaf,
//!       Node(Box<RootNode>, #[choice(range = 0..=3)] u8, Box<RootNode>),
//!   }
//!   ```
//!
//! - **`#[reflect(depth = N)]`**: the recursion depth budget, from 1 to 128
//!   (`refgen_core::combinators::HARD_DEPTH`, where every derived generator
//!   stops, so that a case's recursion stays within the 2 MiB stack of the
//!   thread that runs it; more is a compile error).
//!
//!   ```
//!   # use refgen::prelude::*;
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   #[reflect(depth = 3)]
//!   enum Expr { Num(u8), Add(Box<Expr>, Box<Expr>) }
//!   # let _ = refgen::interpret::generate(&Expr::generator(), 1);
//!   ```
//!
//! - **`#[reflect(args(name: Type, ...))]`**: the generator takes
//!   arguments (bounds, a height, a colour): the type implements
//!   `ReflectiveWith`, and `Type::generator_with(args)` is its generator
//!   under them (one argument is passed as itself, several as a tuple). The
//!   attributes' expressions name them as references (`*lo`), as they name
//!   other fields. Backward, a value is held to the arguments: `check` is
//!   false on a value outside them. An argument may have a default
//!   (`lo: i32 = 0`) or, for an integer, a range (`h: u8 in 0..=4`: a choice
//!   at the site `Type.h`, recomputed backward by trying each value); when
//!   every one has, the type is `Reflective` too, its `generator()` made
//!   with them. Fields of the type itself give the arguments of their part
//!   with `args(...)` (below), made fresh for each value.
//!
//!   ```
//!   # use refgen::prelude::*;
//!   // A search tree with keys in `lo..=hi`: the key first, then the
//!   // subtrees within the bounds it leaves them. Valid by construction.
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   #[reflect(args(lo: i32 = 0, hi: i32 = 100))]
//!   enum Bst {
//!       Leaf,
//!       #[choice(when = *lo <= *hi)]
//!       Node {
//!           #[choice(args(*lo, *key - 1))]
//!           left: Box<Bst>,
//!           #[choice(range = *lo..=*hi)]
//!           key: i32,
//!           #[choice(args(*key + 1, *hi))]
//!           right: Box<Bst>,
//!       },
//!   }
//!
//!   use refgen::interpret::check;
//!   let one = Bst::Node { left: Box::new(Bst::Leaf), key: 50, right: Box::new(Bst::Leaf) };
//!   assert!(check(&Bst::generator(), &one));
//!   assert!(!check(&Bst::generator_with((0, 9)), &one)); // 50 is outside 0..=9
//!   ```
//!
//! - **`#[reflect(with = generator)]`**: the type's generator is this one
//!   (any generator of the type), such as the one `#[synth]` writes from a
//!   validity predicate ([`macro@synth`]); the fields' attributes are not used, and
//!   the type's `#[assume]`s hold for the value as a whole.
//!
//!   ```
//!   # use refgen::prelude::*;
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   #[reflect(with = ascending::generator())]
//!   enum Run { Nil, Cons(u8, Box<Run>) }
//!
//!   #[synth(lo = 0)]
//!   fn ascending(r: &Run, lo: u8) -> bool {
//!       match r {
//!           Run::Nil => true,
//!           Run::Cons(x, rest) => lo <= *x && ascending(rest, *x),
//!       }
//!   }
//!   # let _ = refgen::interpret::generate(&Run::generator(), 1).unwrap();
//!   ```
//!
//! - **`#[reflect(bound = "...")]`**: where-clause predicates that replace
//!   the inferred `T: Reflective + Clone` bounds (`T: 'static` is kept).
//!
//!   ```
//!   # use refgen::prelude::*;
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   #[reflect(bound = "T: Reflective + Clone + Default")]
//!   struct Pair<T> { a: T, b: T }
//!   # let _ = refgen::interpret::generate(&Pair::<u8>::generator(), 1);
//!   ```
//!
//! ## Variant attributes
//!
//! - **`#[choice(weight = N)]`**: the option's relative weight, at least 1
//!   (default 1).
//! - **`#[choice(label = "...")]`**: the option's label (default: the
//!   variant's name). Labels of one enum must differ.
//! - **`#[choice(skip)]`**: never generate this variant; a value of it is
//!   outside the generator's range. At least one variant must remain.
//! - **`#[choice(when = condition)]`**, in a type with arguments: the
//!   variant is offered only where the condition on the arguments holds
//!   (a leaf only at height 0); backward, a value of the variant is outside
//!   the generator's range where it does not. At the depth budget, a guarded
//!   enum offers its base variants the guards allow, or, where they allow
//!   none, every variant they allow (the arguments bound the recursion
//!   then, as a height does); where the guards allow nothing, the value
//!   cannot be made (`Stop::Void`): keep the arguments' ranges such that
//!   some variant is always allowed.
//!
//!   ```
//!   # use refgen::prelude::*;
//!   // A chain of exactly `h` links, `h` drawn from 0..=10.
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   #[reflect(args(h: u8 in 0..=10))]
//!   enum Chain {
//!       #[choice(when = *h == 0)]
//!       End,
//!       #[choice(when = *h > 0)]
//!       Link(#[choice(args(*h - 1))] Box<Chain>),
//!   }
//!   # let _ = refgen::interpret::generate(&Chain::generator(), 1).unwrap();
//!   # assert_eq!(refgen::interpret::generate(&Chain::generator_with(0), 1).unwrap(), Chain::End);
//!   ```
//!
//!   ```
//!   # use refgen::prelude::*;
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   enum Op {
//!       #[choice(weight = 5, label = "plus")] Add,
//!       Sub,
//!       #[choice(skip)] Reserved,
//!   }
//!   # assert!(!refgen::interpret::check(&Op::generator(), &Op::Reserved));
//!   ```
//!
//! ## Field attributes
//!
//! - **`#[choice(range = a..=b)]`**: an integer field uniform in the
//!   inclusive range `a..=b`, one integer choice point at the field's site;
//!   or a `char` field in `'a'..='z'` (literals). The bounds of integer
//!   ranges and lengths, in the field's attributes and its parts', may name
//!   other fields and the type's arguments, as `with` expressions do
//!   (`range = 0..=*len`, `len = 1..=*n as usize`, `range = *lo..=*hi`).
//!   **Order**: a field is made after the fields its attributes name (a key
//!   before the subtrees it bounds), in declaration order otherwise; the
//!   choice tree follows that order, the value keeps its layout. Fields
//!   that name each other in a circle are an error. An integer range whose bounds are literals
//!   or a primitive type's `MIN`/`MAX` (`range = -5..=9`,
//!   `each(range = 0..=u32::MAX)`) is compiled into the generator
//!   (`refgen_core::combinators::ConstInt`), so its draws cost what a
//!   hand-written draw over constants costs; any other bounds are read at
//!   run time. Both make the same values from the same seed.
//! - **`#[choice(len = a..=b)]`**: the length range of a `String`, `Vec`,
//!   `VecDeque`, `BTreeSet`, `HashSet`, `BTreeMap` or `HashMap` field (a
//!   string's chars are the default chars), drawn uniformly in it. A set or
//!   map holds at most `b` entries: equal elements or keys generated twice
//!   collapse. Without it, the length is the default one: short most often,
//!   up to the run's largest size at times (`max_size`).
//! - **`#[choice(regex = "...")]`**: a `String` field matching the pattern
//!   (see `refgen_core::regex`: classes, alternations and repetitions
//!   become choice points; `*` and `+` repeat at most 8 times more than their
//!   minimum). The pattern is checked when the derive runs.
//! - **The parts of a field**: `each(...)` for the elements of a `Vec`,
//!   `VecDeque` or set, `some(...)` for the value inside an `Option`'s
//!   `Some`, `key(...)` and `value(...)` for a map's keys and values. Each
//!   takes the keys above (`range`, `len`, `regex`) and the parts again, to
//!   any depth; they combine with the field's own `len`.
//!
//!   ```
//!   # use refgen::prelude::*;
//!   use std::collections::BTreeMap;
//!
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   struct Service {
//!       #[choice(some(range = 1024..=65535))]
//!       port: Option<u16>,
//!       #[choice(len = 1..=3, each(regex = "[a-z]{1,8}\\.example"))]
//!       hosts: Vec<String>,
//!       #[choice(len = 0..=4, key(regex = "[A-Z]{3}"), value(range = 0..=9))]
//!       limits: BTreeMap<String, u8>,
//!       #[choice(each(some(range = -1..=1)))]
//!       trits: Vec<Option<i8>>,
//!   }
//!   # let _ = refgen::interpret::generate(&Service::generator(), 1);
//!   ```
//!
//! - **`#[choice(args(expr, ...))]`**: the arguments of a field whose type
//!   takes them (`#[reflect(args(...))]`), directly or through `Box`; for
//!   the elements of a `Vec` or set, or the value inside an `Option`, write
//!   `each(args(...))` or `some(args(...))`. The expressions may name other
//!   fields and the type's own arguments; the part is made with them each
//!   time.
//!
//!   ```
//!   # use refgen::prelude::*;
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   #[reflect(args(width: u8))]
//!   struct Cell(#[choice(range = 0..=*width)] u8);
//!
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   struct Row {
//!       #[choice(range = 1..=5)]
//!       width: u8,
//!       #[choice(len = 0..=4, each(args(*width)))]
//!       cells: Vec<Cell>,
//!   }
//!   # let r = refgen::interpret::generate(&Row::generator(), 1).unwrap();
//!   # assert!(r.cells.iter().all(|c| c.0 <= r.width));
//!   ```
//!
//! - **`#[choice(default)]`** / **`#[choice(default = expr)]`**: the field
//!   is not generated: it is `Default::default()`, or `expr` (which may name
//!   earlier fields, as `with` does). It makes no choice; backward, the
//!   field's value is not looked at.
//!
//!   ```
//!   # use refgen::prelude::*;
//!   #[derive(Debug, Clone, PartialEq, Reflective)]
//!   struct Account {
//!       #[choice(range = 1..=5)]
//!       level: u8,
//!       #[choice(range = 0..=*level)]   // a range may name earlier fields
//!       used: u8,
//!       #[choice(default)]
//!       cache: Vec<u8>,
//!       #[choice(default = *level as u32 * 100)]
//!       limit: u32,
//!   }
//!   # if let Ok(a) = refgen::interpret::generate(&Account::generator(), 1) { assert!(a.used <= a.level) }
//!   ```
//!
//! - **`#[choice(with = expr)]`**: a custom reflective generator, any
//!   `Gen<Value = FieldType>`. The fields declared *before* this one are in
//!   scope by name (as references; positional fields as `_0`, `_1`, ...),
//!   so a generator may depend on them. The expression is evaluated each time
//!   a value is generated or reflected. The functions that make generators
//!   (`int`, `vec`, `regex`, `pick`, ...) are all in `refgen::combinators`,
//!   and in `refgen::prelude`: `use refgen::prelude::*;` is the one `use`
//!   line a `with` expression needs.
//! - **`#[at(project)]`**, with `with`: for a generator whose values are not
//!   the field's own (a generator of `U` for a field of type `F`): forward,
//!   the value becomes the field with `F: From<U>`; backward, `project`,
//!   a `Fn(&F) -> Option<U>`, takes the field back to the generator's value
//!   (`None` when the field cannot come from it). It is Goldstein's `at`.
//! - **`#[assume(expr)]`**: the validity condition of the field, with `self`
//!   the field (a reference); checked right after the field is generated,
//!   and the field alone made again while it fails (`retries = N` as on the
//!   type; `top` and `every` are the type's words and are errors here).
//!
//! ## Overrides at the use site
//!
//! One property can make one field (or variant) of a derived type its own
//! way without a new type: `#[with(overriding::<User>().field("age",
//! int(18u32..=120)))] u: User`. The name is the site without the type's
//! (`age`, `Circle.radius`, `Circle`); the result stays reflective (its
//! choices are recorded at the part's site), so reflection, `check`,
//! shrinking and replay tokens work as for the type's own generator (see
//! `refgen::combinators::overriding`, with an example).
//!
//! ## Hard validity conditions
//!
//! A condition that rejects most random values (a sorted list, a search
//! tree, a balanced tree) is the usual way a derived type ends up testing
//! only tiny values. What the derive does, and what to do on top of it:
//!
//! - **Retries are local and recorded.** A value that fails its condition
//!   is made again where it failed, up to its `retries`; all the retries of
//!   one generated value share a budget
//!   (`refgen_core::combinators::RETRY_BUDGET`, 200 failed attempts), so
//!   a condition that never holds costs a bounded amount. With `every`, the
//!   innermost part whose condition fails is made again first; a part that
//!   used up its retries makes the part around it retry. The choice tree
//!   keeps each failed attempt as a `<retry>` group before the kept one:
//!   parsing and lenient replay read it, reflection of a valid value gives
//!   the way with no failed attempt, and shrinking deletes the groups.
//! - **`every` changes which values you get; `top` only how fast.** A
//!   condition checked once on the whole value (`top`, or a type with no
//!   parts of its own type) retried is rejection sampling: the valid values
//!   come in the proportions they had among all values, only fewer cases are
//!   discarded. A condition on every part lets large values through that
//!   whole-value rejection almost never keeps: each part is repaired where
//!   it fails.
//! - **What retries buy.** A sorted `Vec<u8>` checked by `#[assume]` alone
//!   gets three times as many valid cases, of the same lengths; a search
//!   tree with `every` gets valid trees of five or more nodes, which it
//!   almost never made without retries, each at many times the choices
//!   (the failed attempts)
//!   ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#retries-and-every)).
//! - **When that is not enough**: state the condition with `every` where
//!   it holds for the parts (it is then checked, and repaired, part by
//!   part); keep `top` for what is true of the whole only. For conditions
//!   that couple a part with what is around it (a balanced tree's heights,
//!   a search tree's key ranges, a well-typed term's context), no retry
//!   makes large valid values common. The default guide notices: when the
//!   retries make more than one failed attempt per case, it switches to
//!   mutation with splicing and grafting (`mutate`, see
//!   `refgen::guides::auto`), which grows valid values from the valid parts
//!   seen before: on an AVL tree (order and balance as its `#[assume]`),
//!   over half its valid values then have 7 nodes or more, where random
//!   generation almost never makes one ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#sizes-under-each-guide)).
//!
//!   (`guide = rl`, `cgs` and `sa` switch to sharing their work with
//!   mutation the same way; `grow = 0` is the guide alone: see
//!   `refgen::guides::grow`.)
//!
//!   Where validity is harder still, or the values must be large, build
//!   them valid (below). A red-black tree is such a case: its black height
//!   couples a node's two subtrees, and a hand-written fold of inserts finds
//!   its bugs far sooner than the derived type under the default guide
//!   ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#the-red-black-tree)).
//!
//! **Valid by construction rather than by filtering.** `#[assume]` discards
//! the values it rejects; when it rejects most of them (a sorted list, a
//! balanced tree) build valid values directly: pass what a part must
//! respect down as arguments (the search tree under `args` above: bounds
//! for the keys; a height, a black height, a parent's colour for balanced
//! trees), or write the generator with `with`, and keep the `#[assume]`
//! so that `check` and reflection still hold the type to it. A
//! sorted list is a list, sorted; backward, a sorted list is its own
//! pre-image:
//!
//! ```
//! # use refgen::prelude::*;
//! fn sorted(mut v: Vec<u8>) -> Vec<u8> { v.sort(); v }
//!
//! #[derive(Debug, Clone, PartialEq, Reflective)]
//! #[assume(self.0.is_sorted())]
//! struct Sorted(
//!     #[choice(with = vec(u8::generator(), 0..=12).map(sorted, |v: &Vec<u8>| Some(v.clone())))]
//!     Vec<u8>,
//! );
//! # assert!(refgen::interpret::generate(&Sorted::generator(), 3).unwrap().0.is_sorted());
//! ```
//!
//! (Without `with`, retries make discards rare but keep the lengths of
//! random lists that happen to be sorted: length 3 or more in 9% of valid
//! cases. A guide that learns validity learns the easy valid values, such
//! as short lists; construction keeps the whole distribution.)
//!
//! ```
//! use refgen::prelude::*;
//!
//! #[derive(Debug, Clone, PartialEq)]
//! struct Celsius(i16);
//! impl From<i16> for Celsius { fn from(c: i16) -> Self { Celsius(c) } }
//!
//! #[derive(Debug, Clone, PartialEq, Reflective)]
//! struct Reading {
//!     #[choice(range = 1..=12)]
//!     month: u8,
//!     #[choice(regex = "[A-Z]{2}-[0-9]{3}")]
//!     station: String,
//!     #[choice(len = 1..=4)]
//!     samples: Vec<u8>,
//!     #[choice(with = int(-40i16..=50))]
//!     #[at(|c: &Celsius| Some(c.0))]
//!     temperature: Celsius,
//!     #[choice(with = int(*month..=12))]   // depends on an earlier field
//!     #[assume(*self % 2 == 0)]
//!     until: u8,
//! }
//! # if let Ok(r) = refgen::interpret::generate(&Reading::generator(), 5) { assert!(r.month <= r.until) }
//! ```
//!
//! ## Errors
//!
//! Every misuse is reported at the tokens that cause it, all of one input
//! together, and says what to write instead: unknown keys, keys in the wrong
//! place, weight 0, duplicate labels, every variant skipped, ranges on
//! non-integers, empty or reversed ranges, regexes that do not parse or are
//! not on a `String` (with the part attribute to write instead, such as
//! `each(regex = ...)` on a `Vec<String>`), parts on types that have no such
//! part, an empty `#[choice()]` or `each()`, `default` with generator keys,
//! `filter` or `skip` on a field (with what to write instead), `#[at]` without `with`,
//! arguments declared twice or named as a field, `in` on a non-integer,
//! `when` without arguments, `args` on a type that takes none or beside
//! `range` / `with`, a recursive field that does not give the arguments,
//! fields that name each other in a circle,
//! projections of the wrong type, a `with` that is not a generator,
//! `#[assume]` that is not a `bool`, unknown `#[assume]` options, `retries`
//! that is not a number up to 1000, `top` with `every` or on a field, two
//! conditions of one scope on a type, unions, borrowed fields, and types with
//! no finite value. After an error the derive still implements `Reflective`
//! (with a body that never runs), so the type's uses add no errors of their
//! own.
//!
//! # `#[synth]`
//!
//! A generator of exactly the values a validity predicate accepts, written beside it: see
//! [`macro@synth`] for every form it reads, with an example each.

use proc_macro::TokenStream;

mod derive;
mod errors;
mod property;
mod synth;

/// Derives `Reflective`: see the crate documentation for every attribute.
#[proc_macro_derive(Reflective, attributes(choice, at, assume, reflect))]
pub fn derive_reflective(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive::derive(&input).into()
}

#[doc = include_str!("synth/docs.md")]
#[proc_macro_attribute]
pub fn synth(attr: TokenStream, item: TokenStream) -> TokenStream {
    synth::expand(attr.into(), item.into()).into()
}

/// Turns a function over generated arguments into a `#[test]` that runs it
/// on many cases, shrinks a failure by reflection, prints it with a one-line
/// replay token, and remembers it in `regressions/` beside `Cargo.toml`.
///
/// ```
/// use refgen::prelude::*;
///
/// #[derive(Debug, Clone, PartialEq, Reflective)]
/// #[assume(is_bst(self))]
/// #[reflect(depth = 4)]
/// enum Tree { Leaf, Node(Box<Tree>, #[choice(range = 0..=10)] i64, Box<Tree>) }
///
/// # fn keys(t: &Tree, out: &mut Vec<i64>) {
/// #     if let Tree::Node(l, k, r) = t { keys(l, out); out.push(*k); keys(r, out) }
/// # }
/// # fn is_bst(t: &Tree) -> bool {
/// #     let mut ks = Vec::new();
/// #     keys(t, &mut ks);
/// #     ks.windows(2).all(|w| w[0] < w[1])
/// # }
/// impl Tree {
/// #   fn contains(&self, x: i64) -> bool {
/// #       match self { Tree::Leaf => false, Tree::Node(l, k, r) => *k == x || l.contains(x) || r.contains(x) }
/// #   }
///     fn insert(&self, x: i64) -> Tree {
///         match self {
///             Tree::Leaf => Tree::Node(Box::new(Tree::Leaf), x, Box::new(Tree::Leaf)),
///             Tree::Node(l, k, r) if x < *k => Tree::Node(Box::new(l.insert(x)), *k, r.clone()),
///             Tree::Node(l, k, r) if x > *k => Tree::Node(l.clone(), *k, Box::new(r.insert(x))),
///             t => t.clone(),
///         }
///     }
/// }
///
/// #[property(cases = 200, guide = rl)]
/// fn insert_keeps_bst(t: Tree, #[gen(int(0..=10))] x: i64) -> bool {
///     assume!(!t.contains(x));
///     is_bst(&t.insert(x))
/// }
/// # // Outside `cargo test`, the test runs through the hidden `insert_keeps_bst::property()`.
/// # fn main() {
/// #     let (property, config) = insert_keeps_bst::property();
/// #     property.assert(&config.no_regressions());
/// # }
/// ```
///
/// Each argument comes from its type's `Reflective` generator, or from the
/// generator in `#[with(EXPR)]` on it (`#[gen(EXPR)]` is the same; from
/// edition 2024 on `gen` is a reserved word that rustc rejects there, so
/// write `with`). Arguments are `Debug` (and `Clone`
/// when there are several). The function returns `()`, `bool` or
/// `Result<_, E: Debug>`; inside it, `assume!(cond)` discards a case,
/// `maximize!(x)` / `minimize!(x)` (or `target!(x)`) report a utility to the guide (`guide = sa` searches on it), and `label!` / `classify!`
/// label cases for the statistics table, and `note!(...)` adds a line shown with the failing case.
///
/// ```
/// # use refgen::prelude::*;
/// # fn encode(x: i64) -> String { x.to_string() }
/// // Checked on 12 integers of 0..=1000, each at least 10 from every other.
/// #[property(distinct = 12, difference = numeric_distance(10, |x: &i64| i128::from(*x)))]
/// fn far_apart(#[gen(int(0i64..=1000))] x: i64) {
///     assert!(encode(x).len() <= 8);
/// }
/// # fn main() {
/// #     let (property, config) = far_apart::property();
/// #     assert_eq!(property.check(&config.no_regressions()).unwrap().cases, 12);
/// # }
/// ```
///
/// `#[gen(...)]` takes any expression whose value is a `Gen` of the
/// argument's type; `use refgen::prelude::*;` brings every function that
/// makes one (`int`, `vec`, `regex`, `pick`, ...: all of `refgen::combinators`).
///
/// | option | meaning |
/// |---|---|
/// | `cases = N` | valid cases to run, at least 1 (default 256) |
/// | `seed = N` | the run's seed (default: derived from the test's path, so runs repeat) |
/// | `shrink_steps = N` | at most `N` shrink candidates (default 4096) |
/// | `shrink_time_ms = N` | shrink for at most `N` ms (default 30 000) |
/// | `timeout_ms = N` | a case taking longer than `N` ms fails as hanging (default 10 000; the run goes on its own thread, watched from the test's, with no cost per case); `timeout_ms = 0` turns the limit off |
/// | `timeout = none` | no per-case time limit (as `timeout_ms = 0`): cases run on the test's thread, unwatched |
/// | `max_time_ms = N` | a time budget: no case is generated once the run has taken `N` ms, and the report says how many ran; without `cases`, the run searches for that long ("10 seconds of search", as fuzzers allow; `REFGEN_MAX_TIME` overrides) |
/// | `max_discard_ratio = N` | give up as vacuous after `cases * N` discards (default 4); a guide's edits of earlier cases that are rejected (mutants, grafts, rotations) are not discards, and have a budget of their own of the same size, after which the run's cases are random generation's |
/// | `max_size = N` | the largest length of a collection of default length (`Vec<T>`, `String`, a set or map without `len`), 1 to 10 000 (default 100; most lengths stay short; `REFGEN_MAX_SIZE` overrides) |
/// | `guide = NAME` / `NAME(key = value, ...)` / `EXPR` | the guide that answers the generator's choices: one of `refgen::guides` by its name, with its options (`guide = rl`, `guide = rl(explore = diverse)`, `guide = mutate(corpus = 64)`; the guides, their options and defaults are the table in the docs of `refgen::guides`), or any expression whose value implements `Guide` (`guide = MyGuide::default()`); default `auto` |
/// | `distinct = N` | check the property on `N` valid inputs that are pairwise different (the distinct guide): `N` cases, the set first (random ones after it, should fewer than `N` different inputs exist); instead of `cases` and `guide` |
/// | `difference = EXPR` | with `distinct`: when two inputs differ, a `refgen::distinct::Difference` over the argument's type (the tuple of them, with several), written with `refgen::distinct`'s constructors in scope: `cover` (one input per pick pattern), `cover_regex`, `cover_regex_counts`, `not_equal`, `different_lengths` (a bare name is called), `numeric_distance(10, \|x: &i64\| i128::from(*x))`, `edit_distance(3)`, `differ(\|a, b\| ...)`, `all_of([...])`, `some_of([...])`, `not(...)`; default: different `Debug` |
/// | `example = EXPR` | a value (a tuple, with several arguments) run first; repeatable |
/// | `stats` | print the table of labels and the guide's notes after the run (shown without `--nocapture`) |
/// | `regressions = false` / `"dir"` | where failures are remembered (default `regressions`) |
/// | `report = "dir"` | write an HTML report of each run into `dir` (beside `Cargo.toml`) |
/// | `executor = PATH` | for an `async fn` property: the function that runs each case's future to its output (default `refgen::asyncs::block_on`) |
///
/// An `async fn` is a property too: each case's future runs to its output on
/// the thread running the case, by `refgen::asyncs::block_on` (a current-thread
/// tokio runtime with `refgen`'s feature `tokio`, else a minimal executor
/// for futures that need no runtime) or by the function `executor = PATH`
/// names; timeouts, shrinking, replay and remembered failures are as for a
/// plain `fn`.
///
/// ```
/// # use refgen::prelude::*;
/// async fn double(x: u32) -> u32 { x * 2 }
///
/// #[property]
/// async fn doubling_is_adding(#[with(int(0u32..=1000))] x: u32) {
///     assert_eq!(double(x).await, x + x);
/// }
/// # fn main() {
/// #     let (property, config) = doubling_is_adding::property();
/// #     property.assert(&config.no_regressions());
/// # }
/// ```
///
/// Environment variables override the code for one run: `REFGEN_CASES`,
/// `REFGEN_SEED`, `REFGEN_REPLAY=<token>` (run only the printed case),
/// `REFGEN_STATS=1`, `REFGEN_OBSERVABILITY=<file.jsonl or dir>` (one JSON
/// line per case, for the Tyche viewer), `REFGEN_REPORT=<dir>` (an HTML
/// report of each run), `REFGEN_REGRESSIONS=off` or
/// `=<dir>` (see `refgen_runtime::config` for the rules).
///
/// The same property is also a fuzz target, without writing it twice: beside
/// the `#[test] fn name`, the macro defines a hidden type `name` (types and
/// functions have separate namespaces) with `name::property()`, the property
/// and its config as the test runs them, and `name::generator()`, its
/// arguments' generator. Both exist in every build, not only under
/// `cfg(test)`, so a fuzz crate reaches a `pub` property of a library:
/// `refgen::fuzz_property!(my_crate::name)` is a whole cargo-fuzz target,
/// and what it finds lands in the regressions directory the test replays (see
/// `refgen_runtime::fuzz`).
///
/// What a run cannot catch: a case that aborts the process (a panic while
/// unwinding, a failed allocation, a stack overflow) or calls
/// `std::process::exit` ends the test binary (on Unix, an exit while a
/// property runs ends it with status 101, even `exit(0)`, so `cargo test`
/// does not pass). Before each case the runner writes its
/// choices to an in-flight file in the regressions directory, so the next
/// run reports that case as having ended the process (without running it),
/// and remembers it (see `refgen_runtime::persist`).
#[proc_macro_attribute]
pub fn property(attr: TokenStream, item: TokenStream) -> TokenStream {
    property::expand(attr.into(), item.into()).into()
}
